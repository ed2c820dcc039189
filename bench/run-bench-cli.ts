/**
 * `npm run bench`: serves bench/ with Vite, drives headless Chromium through
 * the bench page (`window.bench.run`), prints the table and writes
 * `<model>-<device>-<threads>threads-<time>.json` and `.svg` (and `latest.json` / `latest.svg`)
 * under bench/results/; then worker.shared's figures (bench/shared-engine/), in
 * a process of their own, unless `--shared none`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { createServer } from "vite";
import { chromiumArgs, findChromium } from "../runtime/test-support/launch-chromium.js";
import type { BenchResult } from "./bench-types.js";
import { resultChartSvg } from "./chart-svg.js";
import { parseBenchArguments } from "./parse-bench-arguments.js";
import { formatTable } from "./summarize.js";
import { formatTracedLongTasks, traceLongTasks, type TraceEvent } from "./trace-long-tasks.js";
import { formatZeroCost, type ZeroCostResult } from "./zero-cost/zero-cost-result.js";

/**
 * What DevTools records for its timeline (timers, events, messages, GC, with
 * thread times), and the page's user timing measures. Not `toplevel`: every
 * task on every thread, about 3 MB a second here, which fills Chromium's
 * trace buffer within minutes.
 */
const TRACE_CATEGORIES = ["devtools.timeline", "v8", "blink.user_timing", "__metadata"];

async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send("Tracing.start", { transferMode: "ReturnAsStream", traceConfig: { includedCategories: TRACE_CATEGORIES, recordMode: "recordAsMuchAsPossible" } });
}

/** Ends the trace and reads it back whole. */
async function endTrace(cdp: CDPSession): Promise<string> {
  const complete = new Promise<string>((resolve) => cdp.once("Tracing.tracingComplete", (event) => resolve(event.stream!)));
  await cdp.send("Tracing.end");
  const handle = await complete;
  const chunks: string[] = [];
  for (;;) {
    const chunk = await cdp.send("IO.read", { handle, size: 1 << 20 });
    chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, "base64").toString("utf8") : chunk.data);
    if (chunk.eof) break;
  }
  await cdp.send("IO.close", { handle });
  return chunks.join("");
}

/**
 * Gives the page `benchCpuTimes()`: DevTools' CPU time of the renderer's
 * main thread and of its whole process (the workers are its threads), for
 * the zero-cost path's CPU per token.
 */
async function exposeCpuTimes(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.exposeFunction("benchCpuTimes", async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    const seconds = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? Number.NaN;
    return {
      mainMs: seconds("ThreadTime") * 1000,
      processMs: seconds("ProcessTime") * 1000,
      scriptMs: seconds("ScriptDuration") * 1000,
      styleMs: seconds("RecalcStyleDuration") * 1000,
      layoutMs: seconds("LayoutDuration") * 1000,
    };
  });
}

/** The shared-engine figures, as `npm run bench:shared` prints them; resolves to its exit code. */
function runSharedEngineBench(args: string[]): Promise<number> {
  const script = fileURLToPath(new URL("./shared-engine/run-shared-engine-bench.mjs", import.meta.url));
  console.log(`\nworker.shared: node bench/shared-engine/run-shared-engine-bench.mjs ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: "inherit" });
    child.on("error", (error) => {
      console.error(`bench failed: the shared-engine figures did not start (${error.message}).`);
      resolve(1);
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseBenchArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  await runModelPaths(options);
  if (options.sharedArgs && !process.exitCode) {
    const code = await runSharedEngineBench(options.sharedArgs);
    if (code !== 0) process.exitCode = code;
  }
}

async function runModelPaths(options: ReturnType<typeof parseBenchArguments>): Promise<void> {
  const { config } = options;
  const outDir = resolve(options.outDir ?? fileURLToPath(new URL("./results/", import.meta.url)));
  const server = await createServer({ configFile: fileURLToPath(new URL("./vite.config.ts", import.meta.url)), server: { port: 0, strictPort: false } });
  await server.listen();
  const address = server.httpServer?.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), "bench-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    // A persistent context has the storage quota big models need. The suite's flags, with the
    // optimizing wasm tier a person's browser has (this measures speed), unless --liftoff-only.
    args: chromiumArgs({ optimizeWasm: !options.liftoffOnly, webgpu: options.webgpu }),
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => {
      const text = message.text();
      if (text.startsWith("[bench]")) console.error(text);
      // "Failed to load resource": the catalog models' reachability check, expected with no network.
      else if (message.type() === "error" && !text.startsWith("Failed to load resource")) console.error(`[page] ${text}`);
    });
    page.on("pageerror", (error) => console.error(`[page] ${error.message}`));
    await exposeCpuTimes(context, page);
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 });
    mkdirSync(outDir, { recursive: true });
    const zeroCost = () => page.evaluate((rates) => (window as unknown as { bench: { zeroCost(c: unknown): Promise<ZeroCostResult> } }).bench.zeroCost({ rates }), options.zeroCostRates!);
    if (options.zeroCostOnly) {
      const zero = await zeroCost();
      const file = join(outDir, `zero-cost-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
      writeFileSync(file, `${JSON.stringify(zero, null, 2)}\n`);
      console.log(`${formatZeroCost(zero)}\n\nwrote ${file}`);
      return;
    }
    // The zero-cost path first, in the same run and the same JSON: after the model's paths, their
    // workers' teardown and garbage collection ran on the renderer's other threads during it.
    const zero = options.zeroCostRates ? await zeroCost() : undefined;
    const cdp = options.trace ? await context.newCDPSession(page) : undefined;
    if (cdp) await startTrace(cdp);
    const result = await page.evaluate((c) => (window as unknown as { bench: { run(c: unknown): Promise<BenchResult> } }).bench.run(c), config);
    if (zero) result.zeroCost = zero;
    if (options.liftoffOnly) result.environment.liftoffOnly = true;
    const name = `${result.model.id.replace(/[^\w.-]+/g, "-")}-${config.device}-${result.threadsRequested}threads-${result.date.replace(/[:.]/g, "-")}`;
    if (cdp) {
      const trace = await endTrace(cdp);
      const file = join(outDir, `${name}.trace.json`);
      writeFileSync(file, trace);
      const parsed = JSON.parse(trace) as { traceEvents?: TraceEvent[] } | TraceEvent[];
      result.trace = { file, longTasks: traceLongTasks(Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? [])) };
    }
    const json = `${JSON.stringify(result, null, 2)}\n`;
    const svg = resultChartSvg(result);
    writeFileSync(join(outDir, `${name}.json`), json);
    writeFileSync(join(outDir, `${name}.svg`), svg);
    writeFileSync(join(outDir, "latest.json"), json);
    writeFileSync(join(outDir, "latest.svg"), svg);
    console.log(formatTable(result));
    if (result.zeroCost) console.log(`\n${formatZeroCost(result.zeroCost)}`);
    if (result.trace) console.log(`${formatTracedLongTasks(result.trace.longTasks)}\ntrace written to ${result.trace.file} (open it in https://ui.perfetto.dev or chrome://tracing)`);
    console.log(`\nwrote ${join(outDir, `${name}.json`)} and .svg`);
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await context.close();
    await server.close();
    if (!options.profile) rmSync(profile, { recursive: true, force: true });
  }
}

await main();
