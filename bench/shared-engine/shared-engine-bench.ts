// What worker.shared saves: a dedicated worker per page (`shared: false`,
// the default on a cross-origin isolated page) against the origin's
// SharedWorker, named explicitly on both sides so the figures do not move
// with the default; in headless Chromium with V8's optimizing tier, each run in
// a browser of its own with a fresh profile on disk (with-fresh-profile.ts):
// - page load to `ready`, the model already on the device, for the two
//   pages worker.shared is for: a second tab, and the next page of the site
//   after a full-page navigation (the page's own clock, from its navigation
//   start), through the local adapter's fixture page (production build,
//   its hashed chunks served immutable as a site serves them:
//   immutable-assets-plugin.ts),
//   which starts its adapter as it loads (its `#start=`);
// - the memory the engines take with two tabs of the origin open, each with
//   the model ready (engine-worker-memory.ts says what is read, and why);
// - one turn across two pages of the multi-page Field Store, from the
//   person's send on a product page to the answer shown on the cart page
//   (turn-across-pages.ts).
// Prints medians of --runs runs (default 5). Options: parse-shared-bench-arguments.ts.
import { fileURLToPath } from "node:url";
import { serveExamples } from "../../examples/test-support/serve-examples.js";
import { ensureTestModel } from "../../models/test-models/index.js";
import { BUILT_FIXTURES_VARIABLE, buildExamples, buildFixture, currentBuild, currentExamplesBuild, sourcesStamp } from "../../runtime/test-support/fixture-builds.js";
import { modelFilesPlugin } from "../../runtime/test-support/model-files-plugin.js";
import { serveFixture } from "../../runtime/test-support/serve-fixture.js";
import { engineName, formatMb, formatMs, formatRatio, median } from "./format-figures.js";
import { immutableAssetsPlugin } from "./immutable-assets-plugin.js";
import type { HarnessStart } from "./local-page-harness.js";
import { pageLoadToReady, type PageLoadToReady } from "./page-load-to-ready.js";
import { parseSharedBenchArguments } from "./parse-shared-bench-arguments.js";
import { shapedModelFilesPlugin } from "./shaped-model-files-plugin.js";
import { ensureSharedBenchModels } from "./shared-bench-models.js";
import { turnAcrossPages, type TurnAcrossPages } from "./turn-across-pages.js";
import { offerTwoPageTurnModel, twoPageTurnModel } from "./two-page-turn-model.js";
import { twoTabMemory, type TwoTabMemory } from "./two-tab-memory.js";
import { browserVersion, withFreshProfile } from "./with-fresh-profile.js";

const LOCAL_PAGE = fileURLToPath(new URL("../../runtime/adapters/local/test-fixtures/local-page", import.meta.url));
/** The dedicated worker first, then the shared one. */
const ENGINES = [false, true] as const;

const { runs, models, sections } = (() => {
  try {
    return parseSharedBenchArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
})();

/** `measure` once per run, each in a fresh profile. */
async function repeat<T>(measure: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let run = 0; run < runs; run++) results.push(await measure());
  return results;
}

async function printPageLoadToReady(url: string, starts: (shared: boolean) => Record<string, HarnessStart>): Promise<void> {
  console.log("\nPage load to ready, the model on the device (the page's clock, from its navigation start; the page");
  console.log("  starts its adapter as it loads, with no call from the bench in between; its hashed chunks are");
  console.log("  served immutable, as a production site serves them):");
  console.log("  adapter: its own part, from createLocalAdapter to `ready` (the rest is the page's own load: its bundle, its tool).");
  console.log("model                  engine      second tab   next page   adapter: second tab   next page");
  for (const model of models) {
    for (const shared of ENGINES) {
      const results = await repeat(() => withFreshProfile((context) => pageLoadToReady(context, url, starts(shared)[model]!)));
      const cell = (key: keyof PageLoadToReady) => formatMs(median(results.map((result) => result[key])));
      console.log(`${model.padEnd(22)} ${engineName(shared)} ${cell("secondTab")}  ${cell("nextPage")}            ${cell("secondTabAdapter")}  ${cell("nextPageAdapter")}`);
    }
  }
}

async function printTwoTabMemory(url: string, starts: (shared: boolean) => Record<string, HarnessStart>): Promise<void> {
  console.log("\nMemory with two tabs of the origin open, each with the model ready:");
  console.log("  renderers: the PSS of every renderer process, summed (/proc/<pid>/smaps_rollup, after a full GC in every");
  console.log("  page and worker), with both pages loaded and no adapter started, then with the model ready in both.");
  console.log("  engines added: the difference: ONNX Runtime's WebAssembly memory (the weights), the workers' JS and");
  console.log("  processes, each page's adapter. engine JS heap: the engine workers' V8 heaps (CDP Runtime.getHeapUsage),");
  console.log("  which leave WebAssembly memory out.");
  console.log("model                  engine     workers  renderers before  renderers ready  engines added  engine JS heap");
  for (const model of models) {
    const added: number[] = [];
    for (const shared of ENGINES) {
      const results = await repeat(() => withFreshProfile((context) => twoTabMemory(context, url, starts(shared)[model]!)));
      const pick = (read: (result: TwoTabMemory) => number) => median(results.map(read));
      added.push(pick((result) => result.ready.rendererPss - result.before.rendererPss));
      const cells = [
        String(pick((result) => result.ready.engineWorkers)).padStart(7),
        formatMb(pick((result) => result.before.rendererPss), 17),
        formatMb(pick((result) => result.ready.rendererPss), 16),
        formatMb(added.at(-1)!, 14),
        formatMb(pick((result) => result.ready.engineJsHeap), 15),
      ];
      console.log(`${model.padEnd(22)} ${engineName(shared)} ${cells.join(" ")}`);
    }
    console.log(`${"".padEnd(22)} engines added, dedicated / shared: ${formatRatio(added[0]!, added[1]!)}`);
  }
}

async function printTurnAcrossPages(): Promise<void> {
  const turnModel = await ensureTestModel(twoPageTurnModel());
  if (!currentExamplesBuild(true)) await buildExamples(true);
  const store = await serveExamples({ testModels: true });
  try {
    console.log("\nA turn across two pages of the multi-page Field Store (examples/multi-page, the browser tests' build):");
    console.log("  from the person's Enter on the trail socks' page to the answer shown on the cart page, which the model's");
    console.log("  go_to opened (a full page load) and where the turn went on (scripted model: two-page-turn-model.ts);");
    console.log("  split at the cart page's navigation start.");
    console.log("engine      send to answer   to the cart page   on the cart page   runs (send to answer)");
    const totals: number[] = [];
    for (const shared of ENGINES) {
      const turn = async () =>
        withFreshProfile(
          async (context) => {
            await offerTwoPageTurnModel(context, turnModel.folder);
            return turnAcrossPages(context, store.origin, shared);
          },
          { webmcp: true },
        );
      const results = await repeat(turn);
      const pick = (key: keyof TurnAcrossPages) => median(results.map((result) => result[key]));
      totals.push(pick("total"));
      const all = results.map((result) => Math.round(result.total).toLocaleString("en-US")).join(", ");
      console.log(`${engineName(shared)} ${formatMs(pick("total"), 14)} ${formatMs(pick("toCartPage"), 18)} ${formatMs(pick("onCartPage"), 18)}   ${all}`);
    }
    console.log(`send to answer, dedicated / shared: ${formatRatio(totals[0]!, totals[1]!)}`);
  } finally {
    await store.close();
  }
}

process.env[BUILT_FIXTURES_VARIABLE] = sourcesStamp();
console.log(`Headless Chromium ${await browserVersion()}; medians of ${runs} runs, each in a browser of its own with a fresh profile.`);
if (sections.includes("load") || sections.includes("memory")) {
  const { root, starts } = await ensureSharedBenchModels(models);
  const startsFor = (shared: boolean) => Object.fromEntries(Object.entries(starts).map(([model, start]) => [model, { ...start, baseUrl: "/models/test", shared }]));
  if (!currentBuild(LOCAL_PAGE)) await buildFixture(LOCAL_PAGE);
  const local = await serveFixture(LOCAL_PAGE, [immutableAssetsPlugin(), modelFilesPlugin(root), shapedModelFilesPlugin(root, "qwen3-0.6b-shaped-q8")]);
  try {
    if (sections.includes("load")) await printPageLoadToReady(local.url, startsFor);
    if (sections.includes("memory")) await printTwoTabMemory(local.url, startsFor);
  } finally {
    await local.close();
  }
}
if (sections.includes("turn")) await printTurnAcrossPages();
