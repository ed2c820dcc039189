/**
 * `npm run bench:markdown`: renders ~150 KB replies in headless Chromium,
 * whole and streamed in 30 and 300 parts, with today's markdown parser and
 * view and with those from before issue #14, and prints the total time, the
 * longest main-thread task and the tasks over 50 ms. The page is a
 * production build (React's development build is several times slower).
 * `--only after` skips the old parser, which takes minutes; `--case code`
 * runs only the replies whose name holds `code`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, preview } from "vite";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import type { MarkdownBenchRequest, MarkdownBenchResult } from "./markdown-bench-types.js";
import { codeSpanLine, DELIMITER_RUNS, delimiterRunLine, mixedMarkdown, unbrokenString } from "./markdown-bench-texts.js";

const page = fileURLToPath(new URL("./page/", import.meta.url));
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const parsers = (["before", "after"] as const).filter((parser) => !only || parser === only);

const caseFilter = process.argv.includes("--case") ? process.argv[process.argv.indexOf("--case") + 1] : undefined;
const allCases: { name: string; text: string; parts: number[] }[] = [
  { name: "one 150 KB line of code spans", text: codeSpanLine(), parts: [1, 30, 300] },
  { name: "150 KB of mixed markdown", text: mixedMarkdown(), parts: [1, 30, 300] },
  { name: "a 100,000-character unbroken string", text: unbrokenString(), parts: [1] },
  ...DELIMITER_RUNS.map(({ name, unit }) => ({ name: `one 150 KB line of ${name}`, text: delimiterRunLine(unit), parts: [1, 300] })),
];
const cases = allCases.filter(({ name }) => !caseFilter || name.includes(caseFilter));

const outDir = await mkdtemp(join(tmpdir(), "markdown-bench-"));
await build({
  root: page,
  configFile: false,
  logLevel: "error",
  mode: "production",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  build: { outDir, emptyOutDir: true, minify: true },
});
const server = await preview({
  root: page,
  configFile: false,
  logLevel: "error",
  build: { outDir },
  preview: { host: "127.0.0.1", port: 0, strictPort: false },
  server: { fs: { allow: [repoRoot] } },
});
const address = server.httpServer.address();
if (!address || typeof address === "string") throw new Error("The bench server has no port.");
const browser = await launchChromium();

const rows: string[][] = [["reply", "parts", "parser", "total", "main-thread work", "longest task", "tasks > 50 ms", "longest update (React)", "log width / scroll width"]];
try {
  for (const { name, text, parts } of cases) {
    for (const count of parts) {
      for (const parser of parsers) {
        const tab = await browser.newPage({ viewport: { width: 800, height: 800 } });
        await tab.goto(`http://127.0.0.1:${address.port}/`);
        await tab.waitForSelector("body[data-ready=true]");
        const request: MarkdownBenchRequest = { text, parts: count, parser, deadlineMs: 60_000 };
        const result = await tab.evaluate(
          (request) => (window as unknown as { runMarkdownBench(request: MarkdownBenchRequest): Promise<MarkdownBenchResult> }).runMarkdownBench(request),
          request,
        );
        await tab.close();
        const ms = (value: number) => `${Math.round(value).toLocaleString("en")} ms`;
        const row = [
          name,
          String(count),
          parser,
          ms(result.totalMs) + (result.partsDone < count ? ` (stopped after ${result.partsDone} parts)` : ""),
          ms(result.workMs),
          result.longTasks ? ms(result.longestTaskMs) : "none over 50 ms",
          String(result.longTasksOver50Ms),
          `${ms(result.longestUpdateMs)} (${ms(result.longestRenderMs)})`,
          `${Math.round(result.logWidth)} / ${Math.round(result.logScrollWidth).toLocaleString("en")} px`,
        ];
        rows.push(row);
        console.log(row.join(" | "));
        if (process.argv.includes("--updates")) console.log(`  each part (ms): ${result.updates.join(" ")}`);
      }
    }
  }
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  await rm(outDir, { recursive: true, force: true });
}

console.log(`\n${rows.map((row) => `| ${row.join(" | ")} |`).join("\n").replace(/\n/, `\n|${" --- |".repeat(rows[0]!.length)}\n`)}`);
