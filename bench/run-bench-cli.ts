/**
 * `npm run bench`: serves bench/ with Vite, drives headless Chromium through
 * the bench page (`window.bench.run`), prints the table and writes
 * `<model>-<device>-<time>.json` and `.svg` (and `latest.json` / `latest.svg`)
 * under bench/results/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createServer } from "vite";
import { findChromium } from "../runtime/test-support/launch-chromium.js";
import type { BenchResult } from "./bench-types.js";
import { resultChartSvg } from "./chart-svg.js";
import { parseBenchArguments } from "./parse-bench-arguments.js";
import { formatTable } from "./summarize.js";

/** launch-chromium.ts's flags; a persistent context (below) has the storage quota big models need. */
const FLAGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"];

async function main(): Promise<void> {
  let options;
  try {
    options = parseBenchArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
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
    args: [...FLAGS, ...(options.webgpu ? ["--enable-unsafe-webgpu"] : [])],
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
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 });
    const result = await page.evaluate((c) => (window as unknown as { bench: { run(c: unknown): Promise<BenchResult> } }).bench.run(c), config);
    mkdirSync(outDir, { recursive: true });
    const name = `${result.model.id.replace(/[^\w.-]+/g, "-")}-${config.device}-${result.date.replace(/[:.]/g, "-")}`;
    const json = `${JSON.stringify(result, null, 2)}\n`;
    const svg = resultChartSvg(result);
    writeFileSync(join(outDir, `${name}.json`), json);
    writeFileSync(join(outDir, `${name}.svg`), svg);
    writeFileSync(join(outDir, "latest.json"), json);
    writeFileSync(join(outDir, "latest.svg"), svg);
    console.log(formatTable(result));
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
