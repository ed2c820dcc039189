// `npm run eval`: the evals page in headless Chromium, its report printed as a
// table and written as JSON; exit 1 when a model's pass rate is under
// --threshold. Without --url it serves this project's page (bench/evals/) on
// the examples' server config, as npm start does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { formatEvalTable, modelsBelow, type EvalReport } from "@webmcp-agents/chat/testing";
import { examplesConfig } from "../../examples/examples-config.js";
import { findChromium } from "../../runtime/test-support/launch-chromium.js";
import { EVAL_USAGE, parseEvalArguments, type EvalArguments } from "./parse-eval-arguments.js";
import { EVALS_PATH, serveEvalsPage } from "./serve-evals-page.js";
import { recordConsole, waitForEvalReport } from "./wait-for-eval-report.js";

/** What one `npm run eval` did. */
export interface EvalOutcome {
  report: EvalReport;
  table: string;
  /** Models under the threshold (or not set up), by id. */
  below: string[];
  exitCode: 0 | 1;
}

/** The address of this project's evals page on `origin`, asked to run at once with these choices. */
function pageUrl(origin: string, options: EvalArguments): string {
  const query = new URLSearchParams({ run: "1" });
  if (options.models) query.set("models", options.models.join(","));
  if (options.scenarios) query.set("scenarios", options.scenarios.join(","));
  if (options.runs) query.set("runs", String(options.runs));
  return `${origin}${EVALS_PATH}?${query}`;
}

/** What `npm run eval` does with a page's report: prints the table, writes the JSON, and exits 1 where a model is under the threshold. */
export function finishEval(report: EvalReport, options: Pick<EvalArguments, "json" | "threshold">, log: (line: string) => void): EvalOutcome {
  const table = formatEvalTable(report);
  log(table);
  const file = resolve(options.json);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nReport: ${file} (${Math.round(report.passRate * 100)} % of runs passed, runtime ${report.runtime.version})`);
  const below = modelsBelow(report, options.threshold).map((result) => result.model.id);
  if (below.length > 0) log(`Under the threshold of ${Math.round(options.threshold * 100)} %: ${below.join(", ")}`);
  return { report, table, below, exitCode: below.length > 0 ? 1 : 0 };
}

/** Runs one evaluation in headless Chromium; `log` gets the lines a person reads. */
export async function runEval(options: EvalArguments, log: (line: string) => void = console.log): Promise<EvalOutcome> {
  let server: ViteDevServer | undefined;
  // A persistent profile: a fresh context's storage quota refuses a model of a few hundred MB
  // (quota_exceeded for the 764 MB 0.6B-shaped model). Launched with launch-chromium.ts's flags.
  const profile = mkdtempSync(join(tmpdir(), "web-agents-eval-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--enable-features=WebMCP"],
  });
  try {
    let url = options.url;
    if (!url) {
      const config = examplesConfig({ printUrls: false });
      server = await createServer({ ...config, configFile: false, plugins: [...(config.plugins ?? []), serveEvalsPage()], logLevel: "error", server: { ...config.server, port: 0, hmr: false } });
      await server.listen();
      url = pageUrl(`http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}`, options);
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const pageConsole = recordConsole(page);
    page.on("pageerror", (error) => log(`[page] ${error.message}`));
    log(`Evaluating at ${url}`);
    await page.goto(url);
    const hint = `Make the page call publishEvalReport(report) when evaluateAgent resolves, or give a slow evaluation longer with --timeout (in seconds; it was ${options.timeout}).`;
    return finishEval(await waitForEvalReport(page, { timeoutMs: options.timeout * 1000, console: pageConsole, hint }), options, log);
  } finally {
    await context.close();
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * `npm run eval -- <argv>`: resolves to the exit code, 0 (every model at or
 * over the threshold, or `--help`), 1 (one under it) or 2 (wrong arguments,
 * or no report: the sentence says why).
 */
export async function evalCli(argv: readonly string[], log: (line: string) => void = console.log, error: (line: string) => void = console.error): Promise<0 | 1 | 2> {
  try {
    const options = parseEvalArguments(argv);
    if (options.help) {
      log(EVAL_USAGE);
      return 0;
    }
    return (await runEval(options, log)).exitCode;
  } catch (thrown) {
    error(thrown instanceof Error ? thrown.message : String(thrown));
    return 2;
  }
}

// Run as the CLI (bench/evals/run-eval.mjs), not when a test imports runEval.
if (process.env.WEB_AGENTS_EVAL_CLI === "1") process.exitCode = await evalCli(process.argv.slice(2));
