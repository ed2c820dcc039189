/** What `npm run eval` takes (see run-eval-cli.ts). */
export interface EvalArguments {
  /** A page that runs `evaluateAgent` and calls `publishEvalReport` (a site's own dev server); default: this project's evals page, served here. */
  url?: string;
  /** Catalog entry ids (`test-` may be left out); default the page's own choice. This project's page only: refused with `url`. */
  models?: string[];
  /** Scenario ids; default every one. This project's page only: refused with `url`. */
  scenarios?: string[];
  /** Runs per scenario; default the scenarios' own. This project's page only: refused with `url`. */
  runs?: number;
  /** 0 to 1: exit 1 when a model's pass rate is under it. Default 0 (only a model that could not be set up fails). */
  threshold: number;
  /** Where the report goes. Default `test-results/eval-report.json`. */
  json: string;
  /** Seconds to wait for the whole report (every model, scenario and run), from the page's load. Default 600. */
  timeout: number;
  /** `--help`: print {@link EVAL_USAGE} and run nothing. */
  help?: true;
}

/** What `npm run eval -- --help` prints, and every argument error ends with. */
export const EVAL_USAGE = `Usage: npm run eval -- [options]

Runs an evaluation page in headless Chromium, prints the table, writes the report as JSON,
and exits 1 when a model's pass rate is under --threshold (or it could not be set up).

This project's evals page (bench/evals/, served here), which takes:
  --models store-scripted,tiny   catalog entry ids (test- may be left out); default: the page's five small test models
  --scenarios buy-trail-socks    scenario ids; default: every one
  --runs 3                       runs per scenario; default: the scenarios' own

Any page, this one or yours (--url):
  --url http://localhost:5173/evals.html
                                 a page of your site that runs evaluateAgent and calls publishEvalReport(report);
                                 it chooses its own models, scenarios and runs (--models, --scenarios, --runs are refused)
  --threshold 0.8                a pass rate from 0 to 1, or 80%; default 0 (only a model that could not be set up fails)
  --json test-results/eval-report.json
                                 where the report is written; default test-results/eval-report.json
  --timeout 600                  SECONDS to wait for the whole report (every model, scenario and run); default 600
  --help                         this text`;

const PAGE_ONLY = ["--models", "--scenarios", "--runs"];

/** Reads `argv` (after the script's name); throws with the usage for anything it does not know. */
export function parseEvalArguments(argv: readonly string[]): EvalArguments {
  const result: EvalArguments = { threshold: 0, json: "test-results/eval-report.json", timeout: 600 };
  const given: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = argv[index]!.split(/=(.*)/s, 2) as [string, string | undefined];
    given.push(flag);
    const value = () => {
      const next = inline ?? argv[++index];
      if (next === undefined || next.startsWith("--")) throw new Error(`${flag} needs a value.\n\n${EVAL_USAGE}`);
      return next;
    };
    const list = () => value().split(",").map((item) => item.trim()).filter(Boolean);
    if (flag === "--help" || flag === "-h") result.help = true;
    else if (flag === "--url") result.url = value();
    else if (flag === "--models") result.models = list().map((id) => (id.startsWith("test-") ? id : `test-${id}`));
    else if (flag === "--scenarios") result.scenarios = list();
    else if (flag === "--runs") {
      const runs = Number(value());
      if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer.\n\n${EVAL_USAGE}`);
      result.runs = runs;
    } else if (flag === "--threshold") {
      const text = value();
      const threshold = text.endsWith("%") ? Number(text.slice(0, -1)) / 100 : Number(text);
      if (!(threshold >= 0 && threshold <= 1)) throw new Error(`--threshold must be a pass rate from 0 to 1 (or 0% to 100%).\n\n${EVAL_USAGE}`);
      result.threshold = threshold;
    } else if (flag === "--json") result.json = value();
    else if (flag === "--timeout") {
      const seconds = Number(value());
      if (!(seconds > 0)) throw new Error(`--timeout must be a positive number of seconds (600 is ten minutes).\n\n${EVAL_USAGE}`);
      result.timeout = seconds;
    } else throw new Error(`Unknown argument "${argv[index]}"; npm run eval -- --help lists them.\n\n${EVAL_USAGE}`);
  }
  const pageOnly = given.filter((flag) => PAGE_ONLY.includes(flag));
  if (result.url !== undefined && pageOnly.length > 0 && !result.help) {
    throw new Error(`${pageOnly.join(", ")} choose for this project's evals page only; a page at --url runs the models, scenarios and runs it chooses itself. Leave ${pageOnly.length > 1 ? "them" : "it"} out, or set them in your page.\n\n${EVAL_USAGE}`);
  }
  return result;
}
