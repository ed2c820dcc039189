/** What `npm run eval` takes (see run-eval-cli.ts). */
export interface EvalArguments {
  /** A page that runs `evaluateAgent` and calls `publishEvalReport` (a site's own dev server); default: this project's evals page, served here. */
  url?: string;
  /** Catalog entry ids (`test-` may be left out); default the page's own choice. */
  models?: string[];
  scenarios?: string[];
  /** Runs per scenario; default the scenarios' own. */
  runs?: number;
  /** 0 to 1: exit 1 when a model's pass rate is under it. Default 0 (only a model that could not be set up fails). */
  threshold: number;
  /** Where the report goes. Default `test-results/eval-report.json`. */
  json: string;
  /** Seconds to wait for the report. Default 600. */
  timeout: number;
}

const USAGE =
  "npm run eval -- [--models store-scripted,tiny] [--scenarios buy-trail-socks] [--runs 3] [--threshold 0.8] " +
  "[--json test-results/eval-report.json] [--url http://localhost:5173/my-evals.html] [--timeout 600]";

/** Reads `argv` (after the script's name); throws with the usage for anything it does not know. */
export function parseEvalArguments(argv: readonly string[]): EvalArguments {
  const result: EvalArguments = { threshold: 0, json: "test-results/eval-report.json", timeout: 600 };
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = argv[index]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => {
      const next = inline ?? argv[++index];
      if (next === undefined || next.startsWith("--")) throw new Error(`${flag} needs a value.\nUsage: ${USAGE}`);
      return next;
    };
    const list = () => value().split(",").map((item) => item.trim()).filter(Boolean);
    if (flag === "--url") result.url = value();
    else if (flag === "--models") result.models = list().map((id) => (id.startsWith("test-") ? id : `test-${id}`));
    else if (flag === "--scenarios") result.scenarios = list();
    else if (flag === "--runs") {
      const runs = Number(value());
      if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer.\nUsage: ${USAGE}`);
      result.runs = runs;
    } else if (flag === "--threshold") {
      const text = value();
      const threshold = text.endsWith("%") ? Number(text.slice(0, -1)) / 100 : Number(text);
      if (!(threshold >= 0 && threshold <= 1)) throw new Error(`--threshold must be a pass rate from 0 to 1 (or 0% to 100%).\nUsage: ${USAGE}`);
      result.threshold = threshold;
    } else if (flag === "--json") result.json = value();
    else if (flag === "--timeout") {
      const seconds = Number(value());
      if (!(seconds > 0)) throw new Error(`--timeout must be a positive number of seconds.\nUsage: ${USAGE}`);
      result.timeout = seconds;
    } else throw new Error(`Unknown argument "${argv[index]}".\nUsage: ${USAGE}`);
  }
  return result;
}
