// From page load to `ready` with the model already on the device, for the
// two pages worker.shared is for: a second tab, and the next page of the site
// after a full-page navigation. The dedicated worker (the default) against the
// SharedWorker, on the project's test models, in headless Chromium with V8's
// optimizing tier, through the local adapter's fixture page (production build).
// Each figure is the page's own clock: performance.now() at `ready`, from its
// navigation start. Prints the medians of --runs runs (default 5), each in a
// fresh browser context (its own storage and workers).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { ensureTestModel, scriptedModel, tinyModel } from "../../models/test-models/index.js";
import { BUILT_FIXTURES_VARIABLE, buildFixture, currentBuild, sourcesStamp } from "../../runtime/test-support/fixture-builds.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../runtime/test-support/model-files-plugin.js";
import { serveFixture } from "../../runtime/test-support/serve-fixture.js";

type Harness = { start(options: { model: string; baseUrl: string; shared: boolean }): Promise<void>; status(): { state: string }; prepare(): Promise<void> };
declare const harness: Harness;

const LOCAL_PAGE = fileURLToPath(new URL("../../runtime/adapters/local/test-fixtures/local-page", import.meta.url));
const runsArgument = process.argv.indexOf("--runs");
const RUNS = runsArgument > 0 ? Number(process.argv[runsArgument + 1]) : 5;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs takes a whole number of runs, 1 or more.");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Opens the page (or goes to it), starts the adapter and resolves with the page's clock at `ready`. */
async function readyAfterLoad(page: Page, url: string, model: string, shared: boolean): Promise<number> {
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { state: "attached" });
  await page.evaluate(([model, shared]) => harness.start({ model, baseUrl: "/models/test", shared }), [model, shared] as const);
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          const { state } = harness.status();
          if (state === "ready") resolve(performance.now());
          else if (state === "needs-download" || state === "error" || state === "unavailable") reject(new Error(`The model is ${state}, not ready.`));
          else setTimeout(check, 2);
        };
        check();
      }),
  );
}

async function measure(browser: Browser, url: string, model: string, shared: boolean): Promise<{ secondTab: number; nextPage: number }> {
  const context = await browser.newContext();
  try {
    const first = await context.newPage();
    await first.goto(url);
    await first.waitForSelector("body[data-ready=true]", { state: "attached" });
    await first.evaluate(([model, shared]) => harness.start({ model, baseUrl: "/models/test", shared }), [model, shared] as const);
    await first.evaluate(() => harness.prepare());
    const secondTab = await readyAfterLoad(await context.newPage(), url, model, shared);
    const nextPage = await readyAfterLoad(first, `${url}?next`, model, shared);
    return { secondTab, nextPage };
  } finally {
    await context.close();
  }
}

const [scripted] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
if (!currentBuild(LOCAL_PAGE)) await buildFixture(LOCAL_PAGE);
process.env[BUILT_FIXTURES_VARIABLE] = sourcesStamp();
const server = await serveFixture(LOCAL_PAGE, [modelFilesPlugin(join(scripted.folder, ".."))]);
const browser = await launchChromium({ optimizeWasm: true });
try {
  console.log(`Page load to ready, model on the device (median of ${RUNS} runs, ms, headless Chromium ${browser.version()}):`);
  console.log("model           engine      second tab   next page");
  for (const model of ["test-tiny", "test-scripted"]) {
    for (const shared of [false, true]) {
      const results: { secondTab: number; nextPage: number }[] = [];
      for (let run = 0; run < RUNS; run++) results.push(await measure(browser, server.url, model, shared));
      const cell = (key: "secondTab" | "nextPage") => `${median(results.map((result) => result[key])).toFixed(0)} ms`.padStart(10);
      console.log(`${model.padEnd(15)} ${(shared ? "shared" : "dedicated").padEnd(10)} ${cell("secondTab")}  ${cell("nextPage")}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
