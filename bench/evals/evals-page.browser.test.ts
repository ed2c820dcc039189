// The evals page as npm start serves it (examples-config.ts + serveEvalsPage),
// prebuilt for the browser tier (serve-evals-for-tests.ts), in headless Chromium, on the project's test models: the scripted Field Store
// shoppers (right path, wrong tool, wrong input) and the random-weight tiny
// models, through the real session, worker and engine. And `npm run eval`'s
// runner (runEval) against the same server, as a site runs it against its own.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalReport } from "@webmcp-agents/chat/testing";
import { evalScriptedModels } from "../../models/test-models/eval-scripted-models.js";
import { ensureTestModel, tinyModel, tinyQwen35Model } from "../../models/test-models/index.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { checkLayout, LAYOUT_VIEWPORTS } from "../../runtime/test-support/layout-checks.js";
import { finishEval, runEval } from "./run-eval-cli.js";
import { serveEvalsForTests, type EvalsServer } from "./serve-evals-for-tests.js";
import { recordConsole, waitForEvalReport } from "./wait-for-eval-report.js";

const kinds = (report: EvalReport, model: string) =>
  report.results.find((result) => result.model.id === model)!.scenarios.map((scenario) => [scenario.scenario, scenario.passed, scenario.attempts.flatMap((attempt) => attempt.failures.map((failure) => failure.kind))]);

describe("the evals page on the test models", () => {
  let server: EvalsServer;
  let browser: Browser;
  let origin: string;
  let report: EvalReport;
  const folder = mkdtempSync(join(tmpdir(), "evals-page-"));

  beforeAll(async () => {
    for (const definition of [...evalScriptedModels(), tinyModel(), tinyQwen35Model()]) await ensureTestModel(definition);
    server = await serveEvalsForTests();
    origin = server.origin;
    browser = await launchChromium({ webmcp: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(width: number, height: number, query = ""): Promise<{ page: Page; errors: string[]; console: string[] }> {
    // A context of its own: axe-core's Playwright runner opens pages in the page's context.
    const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const console = recordConsole(page);
    await page.goto(`${origin}/evals/${query}`);
    await page.waitForSelector("body[data-ready=true]");
    return { page, errors, console };
  }

  it("runs the Field Store's scenarios at 1280 px: the right path passes, the wrong tool and the wrong input fail with that reason, the random-weight models fail with a reason; the chart plots pass rate against size; the report downloads and two compare; at 390 px nothing scrolls sideways and axe finds nothing", async () => {
    const { page, errors, console } = await open(1280, 800);
    // The models checked at first are the five small ones.
    expect(await page.locator('input[name="model"]:checked').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
      "test-store-scripted",
      "test-eval-store-wrong-tool",
      "test-eval-store-wrong-input",
      "test-tiny",
      "test-tiny-qwen35",
    ]);
    // A report still to come: the sentence says what it waited for and how far the page got.
    await expect(waitForEvalReport(page, { timeoutMs: 1, console })).rejects.toThrow(/no evaluation report within 0.001 s: waited for <html data-web-agents-eval="done">, which publishEvalReport\(report\) sets[\s\S]*How far the page got: html data-web-agents-eval: \(not set\); state: ready/);
    await page.click("#run");
    await expect(waitForEvalReport(page, { timeoutMs: 1, console })).rejects.toThrow(/state: running; runs finished: \d+ of 10; status: [^;]+; log: .*run: buy-trail-socks, declined-checkout on test-store-scripted/);
    // The ten runs are the work itself (each loads its model in the page's worker): 24 s here, 30-37 s on
    // one shared core, so a machine 3x slower than this one still finishes in half of the ceiling.
    report = await waitForEvalReport(page, { timeoutMs: 150_000, console });

    // The right path answers the declined order honestly (its refusal), so it passes both.
    expect(kinds(report, "test-store-scripted")).toEqual([["buy-trail-socks", 1, []], ["declined-checkout", 1, []]]);
    expect(kinds(report, "test-eval-store-wrong-tool")).toEqual([["buy-trail-socks", 0, ["wrong-tool"]], ["declined-checkout", 0, ["wrong-tool", "answer"]]]);
    expect(kinds(report, "test-eval-store-wrong-input")).toEqual([["buy-trail-socks", 0, ["wrong-input"]], ["declined-checkout", 0, ["wrong-input", "answer"]]]);
    for (const random of ["test-tiny", "test-tiny-qwen35"]) {
      const result = report.results.find((entry) => entry.model.id === random)!;
      expect(result.error).toBeUndefined();
      expect(result.passed).toBe(0);
      // Every failed run says why, and none of them is a crash of the run itself.
      for (const attempt of result.scenarios.flatMap((scenario) => scenario.attempts)) {
        expect(attempt.failures.length).toBeGreaterThan(0);
        expect(attempt.failures.map((failure) => failure.kind)).not.toContain("error");
        expect(attempt.steps.length).toBeGreaterThan(0);
      }
    }
    const right = report.results[0]!;
    expect(right.model).toMatchObject({ engine: "transformers", device: "wasm", dtype: "fp32", revision: "main", format: "qwen3" });
    // The selected variant's download: the scripted model is mostly its tokenizer, Qwen3's first 16,384 tokens (0.46 MB).
    expect(right.model.bytes).toBeGreaterThan(400_000);
    expect(right.scenarios[0]!.attempts[0]!.steps).toHaveLength(5);
    expect(right.scenarios[0]!.attempts[0]!.steps[0]).toMatchObject({ promptTokens: expect.any(Number), timeToFirstTokenMs: expect.any(Number), decodeTokensPerSecond: expect.any(Number) });
    // The scripted model writes its calls right: the constraint, asked to count, repaired none.
    expect(right.scenarios[0]!.attempts[0]!.repairedCalls).toBe(0);
    expect(report.scenarios[0]).toMatchObject({ id: "buy-trail-socks", agent: "shopper", generation: { temperature: 0, maxNewTokens: 96 } });
    expect(report.environment.capabilities).toMatchObject({ crossOriginIsolated: true });

    // The table and the chart: a row per model and scenario, a dot per model in the size panel.
    expect(await page.locator("#results-table tbody tr").count()).toBe(15);
    expect(await page.locator('#results-table tr[data-model="Test model: script with a wrong tool"][data-scenario="all"] td.why').textContent()).toMatch(/^wrong-tool ×2/);
    expect(await page.locator("#chart svg").getAttribute("data-points")).toBe("5");
    // A dot per model in each panel, and one in the legend.
    expect(await page.locator("#chart svg circle").count()).toBe(15);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const saved = join(folder, "first.json");
    await download.saveAs(saved);
    expect(JSON.parse(readFileSync(saved, "utf8"))).toEqual(report);
    // A second report where the wrong-tool model passed everything and the runtime moved on.
    const second = structuredClone(report);
    second.runtime.version = "0.2.0";
    Object.assign(second.results[1]!, { passed: 2 });
    for (const scenario of second.results[1]!.scenarios) scenario.passed = scenario.runs;
    writeFileSync(join(folder, "second.json"), JSON.stringify(second));
    await page.setInputFiles("#report-a", saved);
    await page.setInputFiles("#report-b", join(folder, "second.json"));
    await page.locator("#diff-table").waitFor();
    expect(await page.locator("#diff-table tbody tr").count()).toBe(15);
    expect(await page.locator("#diff-table tbody tr", { hasText: "test-eval-store-wrong-tool" }).last().textContent()).toContain("+100 points");
    expect(await page.locator("#diff-changes").textContent()).toContain(`runtime version: ${report.runtime.version} -> 0.2.0`);

    const findings = await checkLayout(page);
    expect(findings.pageOverflow).toEqual([]);
    expect(findings.axe).toEqual([]);
    await page.screenshot({ path: "test-results/evals-page-1280.png", fullPage: true });

    // At 390 px the same results (a table of 15 rows, the chart, the comparison): the tables scroll
    // in their own boxes, the page does not scroll sideways, and axe finds nothing. The same page
    // resized, not a second evaluation: the layout is what is checked, and a run costs model loads.
    const phone = LAYOUT_VIEWPORTS.find((viewport) => viewport.name === "phone")!;
    await page.setViewportSize({ width: phone.width, height: phone.height });
    const narrow = await checkLayout(page);
    expect(narrow.pageOverflow).toEqual([]);
    expect(narrow.axe).toEqual([]);
    await page.screenshot({ path: "test-results/evals-page-390.png", fullPage: true });
    // What a late report's sentence shows of the page's progress (wait-for-eval-report.ts).
    expect(await page.evaluate(() => ({ ...document.body.dataset }))).toMatchObject({ evalState: "done", evalRuns: "10 of 10" });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  it("npm run eval's runner, pointed at this server as a site points it at its own: prints the table, writes the JSON, and exits 1 only under the threshold", async () => {
    const lines: string[] = [];
    const url = (query: string) => `${origin}/evals/?run=1&${query}`;
    const json = join(folder, "cli.json");
    // The run's own ceiling (--timeout, in seconds) is under the test's, so a late report ends in the runner's sentence, not in vitest's timeout.
    // Two models downloaded and evaluated in a new Chromium: 34 s on a normal run on 2026-12-06, so 100 s leaves room for a 2.7x slower machine.
    const failing = await runEval({ url: url("models=test-store-scripted,test-eval-store-wrong-tool&scenarios=buy-trail-socks"), threshold: 1, json, timeout: 100 }, (line) => lines.push(line));
    expect(failing.exitCode).toBe(1);
    expect(failing.below).toEqual(["test-eval-store-wrong-tool"]);
    expect(failing.table).toMatch(/Field Store script \(right path\).*buy-trail-socks\s+1\/1/);
    expect(lines.join("\n")).toContain("Under the threshold of 100 %: test-eval-store-wrong-tool");
    expect(JSON.parse(readFileSync(json, "utf8"))).toEqual(failing.report);
    // Exit 0 where every model reaches the threshold: the runner's last stage on this run's own report, the model that passed alone
    // (a second evaluation in a second Chromium would prove the same page, server and runner again).
    const passed = { ...failing.report, results: failing.report.results.filter((result) => result.model.id === "test-store-scripted") };
    const passing = finishEval(passed, { threshold: 1, json }, () => {});
    expect([passing.exitCode, passing.below]).toEqual([0, []]);
  }, 200_000);

  it("a page that never publishes its report: the runner says what it waited for, names publishEvalReport and --timeout's unit, and shows how far the page got", async () => {
    const page = "data:text/html,<title>Not an evals page</title><script>console.log('evaluating, but never publishing')</script>";
    const late = runEval({ url: page, threshold: 0, json: join(folder, "never.json"), timeout: 1 }, () => {});
    await expect(late).rejects.toThrow(/^The page at data:text\/html,.* published no evaluation report within 1 s: waited for <html data-web-agents-eval="done">, which publishEvalReport\(report\) sets once evaluateAgent resolves\. Make the page call publishEvalReport\(report\) when evaluateAgent resolves, or give a slow evaluation longer with --timeout \(in seconds; it was 1\)\./);
    await expect(late).rejects.toThrow(/How far the page got: html data-web-agents-eval: \(not set\)\.\nIts console \(last 20 lines\):\n  \[log\] evaluating, but never publishing/);
  }, 30_000);
});
