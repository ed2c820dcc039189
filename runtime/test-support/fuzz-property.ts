/**
 * The fuzz targets' shared harness: how many cases (`FUZZ_RUNS`, default
 * 10,000 in CI; `npm run fuzz` sets 100,000), a time limit per case that a
 * loaded machine cannot trip by chance, and a report per target.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import fc from "fast-check";

/** Cases per target: `FUZZ_RUNS` when set (a positive integer), else 10,000. */
export function fuzzRuns(): number {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined || raw === "") return 10_000;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs <= 0) throw new TypeError(`FUZZ_RUNS must be a positive integer; got ${JSON.stringify(raw)}.`);
  return runs;
}

/** A case may take this long (ms). */
export const CASE_LIMIT_MS = 100;

/**
 * A vitest timeout for `runs` cases: generous, since a case may take up to
 * the limit on a loaded machine (the markdown target's 10,000 took 103 s
 * with the suite on one core, 2026-12-05).
 */
export function fuzzTimeout(runs: number = fuzzRuns()): number {
  return Math.max(120_000, runs * 40);
}

export interface FuzzReport {
  target: string;
  cases: number;
  /** The slowest case as first measured, in ms (on a busy machine this includes other work). */
  worstMs: number;
  /** The slowest case measured again on its own (the best of 3 tries), in ms: what the limit is held against. */
  worstIsolatedMs: number;
  totalMs: number;
  seed: number;
  /** The slowest case (on its own), abridged: its JSON's start and length. */
  worstCase: string;
}

/**
 * Runs `check` over `runs` cases from `arbitrary`. A case fails when `check`
 * throws (an assertion or a crash), or when it takes over {@link CASE_LIMIT_MS}
 * both as first measured and in each of 3 runs on its own (a case over a
 * quarter of the limit is measured again), the limit scaled by how much
 * slower a fixed workload runs now than at the start (so a machine that other
 * work slows down does not fail a case; a case that is slow by itself fails). Returns the report, printed, and written to
 * `$FUZZ_REPORT_DIR/<target>.json` when that is set. `cases` counts the cases
 * run, shrinking steps after a failure included.
 */
export function fuzzProperty<T>(target: string, arbitrary: fc.Arbitrary<T>, check: (value: T) => void, runs: number = fuzzRuns()): FuzzReport {
  const timer = caseTimer(target);
  fc.assert(
    fc.property(arbitrary, (value) => {
      const elapsed = time(() => check(value));
      timer.judge(elapsed, () => Math.min(time(() => check(value)), time(() => check(value)), time(() => check(value))), value);
    }),
    runOptions(runs, timer.seed),
  );
  return timer.report();
}

/** {@link fuzzProperty} for a check that awaits (a real ReadableStream, say): the same limit and report. */
export async function fuzzAsyncProperty<T>(
  target: string,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
  runs: number = fuzzRuns(),
): Promise<FuzzReport> {
  const timer = caseTimer(target);
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      const elapsed = await timeAsync(() => check(value));
      const again = timer.slow(elapsed)
        ? Math.min(await timeAsync(() => check(value)), await timeAsync(() => check(value)), await timeAsync(() => check(value)))
        : elapsed;
      timer.judge(elapsed, () => again, value);
    }),
    runOptions(runs, timer.seed),
  );
  return timer.report();
}

/** Shrinks a failure to a small case, but gives up (as a failure) before vitest's timeout would hide why. */
function runOptions(runs: number, seed: number): fc.Parameters<unknown> {
  return { numRuns: runs, seed, interruptAfterTimeLimit: fuzzTimeout(runs) - 10_000, markInterruptAsFailure: true };
}

function caseTimer(target: string) {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
  let cases = 0;
  let worstMs = 0;
  let worstIsolatedMs = 0;
  let worstCase = "";
  const baselineMs = calibrationMs();
  const started = performance.now();
  const slow = (elapsed: number) => elapsed > CASE_LIMIT_MS / 4;
  return {
    seed,
    slow,
    /** Counts a case that took `elapsed` ms; when slow, measures it again on its own (`isolated`) and throws past the limit. */
    judge(elapsed: number, isolated: () => number, value: unknown): void {
      cases += 1;
      worstMs = Math.max(worstMs, elapsed);
      const judged = slow(elapsed) ? isolated() : elapsed;
      if (judged > worstIsolatedMs) {
        worstIsolatedMs = judged;
        worstCase = describeCase(value);
      }
      if (judged > CASE_LIMIT_MS) {
        // Still slow on its own: is the case slow, or the machine? A fixed workload, timed at the start
        // and now, says how much slower the machine is at the moment; the same workload run for as long
        // as the case took says how much slower it is than the machine the limit was set on (a core
        // shared with other processes stretches a long case but not a short timing). The limit grows
        // by the larger.
        const slowdown = Math.max(1, calibrationMs() / baselineMs, stretchSlowdown(judged));
        if (judged > CASE_LIMIT_MS * slowdown) {
          throw new Error(
            `${target}: a case took ${judged.toFixed(1)} ms on its own (the best of 3), over the ${CASE_LIMIT_MS} ms limit ` +
              `(x${slowdown.toFixed(2)} for the machine's load now).`,
          );
        }
      }
    },
    report(): FuzzReport {
      const report: FuzzReport = {
        target,
        cases,
        worstMs: round(worstMs),
        worstIsolatedMs: round(worstIsolatedMs),
        totalMs: Math.round(performance.now() - started),
        seed,
        worstCase,
      };
      console.log(
        `[fuzz] ${target}: ${report.cases} cases in ${(report.totalMs / 1000).toFixed(1)} s, ` +
          `worst ${report.worstMs} ms (${report.worstIsolatedMs} ms on its own), seed ${seed}`,
      );
      const folder = process.env.FUZZ_REPORT_DIR;
      if (folder) {
        mkdirSync(folder, { recursive: true });
        writeFileSync(`${folder}/${target}.json`, JSON.stringify(report, null, 2));
      }
      return report;
    },
  };
}

/** A fixed workload (string building, searching, JSON). */
function workload(): void {
  let text = "";
  for (let index = 0; index < 20_000; index++) text += String.fromCharCode(97 + (index % 26));
  let found = 0;
  for (let index = 0; index < 200; index++) found += text.indexOf("zab", index * 50) === -1 ? 0 : 1;
  found += (JSON.parse(JSON.stringify({ text, found })) as { found: number }).found;
  if (found < 0) throw new Error("unreachable");
}

/** The best of 5 timings of {@link workload}: the machine's speed right now, in ms. */
function calibrationMs(): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) best = Math.min(best, time(workload));
  return Math.max(best, 0.01);
}

/**
 * One {@link workload} on the machine {@link CASE_LIMIT_MS} was set on, warm
 * (the median of 200 best-of-5 timings on a quiet 2-core developer machine,
 * 2026-12-05: 0.37 ms; the fastest 0.23 ms).
 */
const REFERENCE_WORKLOAD_MS = 0.3;

/**
 * How much slower than the reference machine this one runs {@link workload}
 * over `ms`: the workload repeated for about that long, so a core shared with
 * other processes (a 2.7x slower CI machine, one pinned core) slows it as it
 * slowed the case. At least 1.
 */
function stretchSlowdown(ms: number): number {
  const rounds = Math.max(1, Math.ceil(ms / REFERENCE_WORKLOAD_MS));
  const took = time(() => {
    for (let round = 0; round < rounds; round++) workload();
  });
  return Math.max(1, took / (rounds * REFERENCE_WORKLOAD_MS));
}

function describeCase(value: unknown): string {
  const json = JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? `<${item.length} bytes>` : item)) ?? String(value);
  return json.length <= 300 ? json : `${json.slice(0, 300)}… (${json.length} characters)`;
}

async function timeAsync(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function time(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Cuts `length` items at `offsets` (taken modulo length + 1, any order, repeats merged): the chunks' [start, end) pairs. */
export function cutPoints(length: number, offsets: readonly number[]): [number, number][] {
  const cuts = [...new Set(offsets.map((offset) => offset % (length + 1)))].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  let start = 0;
  for (const cut of [...cuts, length]) {
    ranges.push([start, cut]);
    start = cut;
  }
  return ranges;
}

/** `text` cut at `offsets` (UTF-16 units: a cut may fall inside a surrogate pair). */
export function splitText(text: string, offsets: readonly number[]): string[] {
  return cutPoints(text.length, offsets).map(([start, end]) => text.slice(start, end));
}

/** `bytes` cut at `offsets` (a cut may fall inside a multi-byte UTF-8 character). */
export function splitBytes(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  return cutPoints(bytes.length, offsets).map(([start, end]) => bytes.slice(start, end));
}

/** Ways to cut one input: 1 to `lists` lists of up to `cuts` offsets each (see {@link cutPoints}). */
export function chunkingsOf(cuts: number, lists: number): fc.Arbitrary<number[][]> {
  return fc.array(fc.array(fc.nat(), { maxLength: cuts }), { minLength: 1, maxLength: lists });
}

/** 1 to 3 ways to cut one input, each in up to 65 parts. */
export const chunkings = chunkingsOf(64, 3);
