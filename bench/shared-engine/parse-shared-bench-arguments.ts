/** The models `npm run bench:shared` can measure, by the id it prints. */
export const SHARED_BENCH_MODELS = ["test-tiny", "test-scripted", "qwen3-0.6b-shaped-q8"] as const;
export type SharedBenchModel = (typeof SHARED_BENCH_MODELS)[number];

/** The figures `npm run bench:shared` can print. */
export const SHARED_BENCH_SECTIONS = ["load", "memory", "turn"] as const;
export type SharedBenchSection = (typeof SHARED_BENCH_SECTIONS)[number];

/** What `npm run bench:shared -- [options]` was asked for. */
export interface SharedBenchOptions {
  /** Runs per figure, each in a browser of its own with a fresh profile; the median is printed (default 5). */
  runs: number;
  /** Models for page load to ready and the two tabs' memory (default test-tiny, test-scripted). */
  models: SharedBenchModel[];
  /** Which figures (default all): page load to ready, two tabs' memory, the turn across two pages. */
  sections: SharedBenchSection[];
}

export const SHARED_BENCH_USAGE = `npm run bench:shared -- [options]
  --runs <n>       runs per figure, each in a browser of its own with a fresh profile (default 5); prints medians
  --models <a,b>   ${SHARED_BENCH_MODELS.join(", ")} (default test-tiny,test-scripted;
                   the 0.6B-shaped one is built on first use, 764 MB, about 10 s here)
  --sections <a,b> ${SHARED_BENCH_SECTIONS.join(", ")} (default all): page load to ready, two tabs' memory,
                   the multi-page store's turn across two pages (the same with any --models)`;

export function parseSharedBenchArguments(argv: readonly string[]): SharedBenchOptions {
  const options: SharedBenchOptions = { runs: 5, models: ["test-tiny", "test-scripted"], sections: [...SHARED_BENCH_SECTIONS] };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = argv[index + 1];
    if (flag === "--runs") {
      options.runs = Number(value);
      if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error(`--runs takes a whole number of runs, 1 or more.\n${SHARED_BENCH_USAGE}`);
      index++;
    } else if (flag === "--models") {
      options.models = listOf(flag, value, SHARED_BENCH_MODELS);
      index++;
    } else if (flag === "--sections") {
      options.sections = listOf(flag, value, SHARED_BENCH_SECTIONS);
      index++;
    } else {
      throw new Error(`Unknown option ${flag}.\n${SHARED_BENCH_USAGE}`);
    }
  }
  return options;
}

/** A comma-separated list of `known` values. */
function listOf<T extends string>(flag: string, value: string | undefined, known: readonly T[]): T[] {
  const values = (value ?? "").split(",").filter(Boolean);
  const unknown = values.filter((item) => !(known as readonly string[]).includes(item));
  if (values.length === 0 || unknown.length > 0) throw new Error(`${flag}: unknown ${unknown.join(", ") || "(none given)"}.\n${SHARED_BENCH_USAGE}`);
  return values as T[];
}
