import type { Page } from "playwright-core";
import type { EvalReport } from "@webmcp-agents/chat/testing";
import { EVAL_REPORT_GLOBAL } from "../../runtime/testing/evals/publish-eval-report.js";

/** How many of the page's last console lines a late report shows. */
const CONSOLE_LINES = 20;

/** A page's console as it goes: its last lines and uncaught errors, for {@link waitForEvalReport} to show when the report is late. */
export function recordConsole(page: Page): string[] {
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
    if (lines.length > CONSOLE_LINES) lines.shift();
  };
  page.on("console", (message) => keep(`[${message.type()}] ${message.text()}`));
  page.on("pageerror", (error) => keep(`[pageerror] ${error.message}`));
  page.on("crash", () => keep("[crash] the page crashed"));
  return lines;
}

/**
 * What the page shows of its evaluation: the attribute publishEvalReport
 * sets; on this project's page its state, the runs finished, its status
 * line and its log's last lines (each finished run, timed).
 */
function readEvalProgress(): Record<string, string> {
  const body = document.body?.dataset ?? {};
  const status = document.querySelector('[role="status"]')?.textContent?.trim();
  const log = document.getElementById("log")?.textContent?.trim().split("\n").slice(-12).join(" | ");
  return {
    "html data-web-agents-eval": document.documentElement.dataset.webAgentsEval ?? "(not set)",
    ...(body.evalState !== undefined && { state: body.evalState }),
    ...(body.evalRuns !== undefined && { "runs finished": body.evalRuns }),
    ...(status && { status }),
    ...(log && { log }),
  };
}

/**
 * Waits until the page publishes its report (`publishEvalReport` sets
 * `<html data-web-agents-eval="done">`) and reads it. Past `timeoutMs` it
 * throws a sentence that names what it waited for and how far the page got
 * (its state, the runs finished, its status line and the last lines of
 * `console`, from {@link recordConsole}), not Playwright's bare timeout.
 */
export async function waitForEvalReport(page: Page, options: { timeoutMs: number; console: readonly string[]; hint?: string }): Promise<EvalReport> {
  try {
    await page.waitForSelector("html[data-web-agents-eval=done]", { state: "attached", timeout: options.timeoutMs });
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "TimeoutError") throw error;
    let progress: string;
    try {
      progress = Object.entries(await page.evaluate(readEvalProgress)).map(([name, value]) => `${name}: ${value}`).join("; ");
    } catch (unreadable) {
      progress = `(the page could not be read: ${unreadable instanceof Error ? unreadable.message.split("\n")[0] : String(unreadable)})`;
    }
    const lines = options.console.length ? options.console.map((line) => `  ${line}`).join("\n") : "  (nothing logged)";
    throw new Error(
      `The page at ${page.url()} published no evaluation report within ${options.timeoutMs / 1000} s: waited for <html data-web-agents-eval="done">, ` +
        `which publishEvalReport(report) sets once evaluateAgent resolves. ${options.hint ?? "Make the page call publishEvalReport(report) when its evaluation is done."}\n` +
        `How far the page got: ${/[.!?]$/.test(progress) ? progress : `${progress}.`}\nIts console (last ${CONSOLE_LINES} lines):\n${lines}`,
    );
  }
  return (await page.evaluate((name) => (globalThis as Record<string, unknown>)[name], EVAL_REPORT_GLOBAL)) as EvalReport;
}
