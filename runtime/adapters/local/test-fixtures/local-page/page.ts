// A shop page with a real add_to_cart tool, the real createLocalAdapter (its
// default engine: the module worker running transformers.js) and a real
// session, for local-adapter.browser.test.ts. The test reads window.harness.
import { defineWebTool, registerWebTool } from "../../../../core/index.js";
import type { AdapterStatus, AgentAdapter } from "../../../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../../../session/agent-stream-part.js";
import { createAgentSession, type AgentSessionStore } from "../../../../session/create-agent-session.js";
import type { GenerationUsage, LoadProgress } from "../../../../../worker/protocol.js";
import { testModelEntries } from "../../../../testing/index.js";
import { createLocalAdapter, type LocalAdapter } from "../../index.js";
import { loadDefaultEngine } from "../../load-default-engine.js";

const cart: string[] = [];
const badge = document.querySelector("#badge")!;

await registerWebTool(
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    execute: async (input: { sku: string }) => {
      cart.push(input.sku);
      badge.textContent = String(cart.length);
      return `Added ${input.sku}.`;
    },
  }),
);

interface StartOptions {
  /** `test-scripted` or `test-tiny`. */
  model: string;
  /** Where the test models are served: `/models/test` or `/slow-models/test`. */
  baseUrl: string;
  maxNewTokens?: number;
  temperature?: number;
  autoLoad?: boolean;
  /** createLocalAdapter's `threads` (ONNX Runtime's WASM threads). */
  threads?: number;
  /**
   * Offer only the test models' variants for this device: `webgpu` keeps the
   * WebGPU path tested on SwiftShader, where the adapter would otherwise
   * pick the CPU variant (a software WebGPU adapter is slower than WASM).
   */
  device?: "webgpu" | "wasm";
  /** Pin the test models' variants to this commit: their files then come from `resolve/<revision>/`. */
  revision?: string;
  /**
   * Serve `test-scripted` from another build of the scripted model: its
   * folder and its files' sizes (one with Qwen3's whole tokenizer, for
   * downloads cut past the first 8 MB piece).
   */
  scriptedBuild?: { repo: string; files: { path: string; bytes: number }[] };
  /** createLocalAdapter's `worker.shared`: the engine in the origin's SharedWorker. */
  shared?: boolean;
}

let adapter: LocalAdapter | undefined;
let session: AgentSessionStore | undefined;
/** Every status the adapter reported, in order (consecutive duplicates dropped). */
let statuses: AdapterStatus[] = [];
/** Every part the adapter yielded, with when (performance.now()). */
let parts: { at: number; part: AgentStreamPart }[] = [];
let runEndedAt: number[] = [];
let stopAt: number | undefined;
/** The usage of every generation the engine reported, in order. */
let usages: GenerationUsage[] = [];
/** Each load the engine was asked for: the progress it reported (a load that reads the model's files starts at 0). */
let loads: LoadProgress[][] = [];
/** How many generations the page has asked the engine for (each in flight once asked). */
let generateCalls = 0;
let leftStreamingAt: number | undefined;
/** When (performance.now()) this page's adapter was created, and when it first said `ready`. */
let startedAt: number | undefined;
let readyAt: number | undefined;

const harness = {
  cart,
  async start(options: StartOptions) {
    session?.dispose();
    statuses = [];
    parts = [];
    runEndedAt = [];
    usages = [];
    loads = [];
    startedAt = performance.now();
    readyAt = undefined;
    const local = createLocalAdapter({
      worker: {
        // The default engine (the module worker, or the shared one); only its usage and load progress are read on the way.
        host: async () => {
          const engine = await loadDefaultEngine({ shared: options.shared === true });
          return {
            ...engine,
            load: (model, onProgress) => {
              const seen: LoadProgress[] = [];
              loads.push(seen);
              return engine.load(model, (progress) => {
                seen.push(progress);
                onProgress(progress);
              });
            },
            generate: (request, onEvent) => {
              generateCalls += 1;
              return engine.generate(request, (event) => {
                if (event.type === "usage") usages.push(event.usage);
                onEvent(event);
              });
            },
          };
        },
        ...(options.threads !== undefined && { threads: options.threads }),
      },
      catalog: {
        // Only the project's test models: the Qwen3 catalog is not served here.
        models: testModelEntries({ baseUrl: options.baseUrl }).map((entry) => ({
          ...entry,
          variants: entry.variants
            .filter((variant) => !options.device || variant.device === options.device)
            .map((variant) => ({
              ...variant,
              ...(options.revision && { revision: options.revision }),
              ...(entry.id === "test-scripted" && options.scriptedBuild && { ...options.scriptedBuild, bytes: options.scriptedBuild.files.reduce((sum, file) => sum + file.bytes, 0) }),
            })),
        })),
        model: options.model,
        // Each start names its model: no choice remembered from an earlier start on this origin.
        rememberModel: false,
        ...(options.autoLoad !== undefined && { autoLoad: options.autoLoad }),
      },
      generation: { maxNewTokens: options.maxNewTokens ?? 256, ...(options.temperature !== undefined && { temperature: options.temperature }) },
    });
    adapter = local;
    const record = () => {
      const status = local.status();
      if (status.state === "ready") readyAt ??= performance.now();
      if (JSON.stringify(statuses.at(-1)) !== JSON.stringify(status)) statuses.push(status);
    };
    local.subscribe(record);
    record();
    // The session sees the real adapter; only run() is observed, to time the parts.
    const observed: AgentAdapter = {
      ...local,
      async *run(req) {
        try {
          for await (const part of local.run(req)) {
            parts.push({ at: performance.now(), part });
            yield part;
          }
        } finally {
          runEndedAt.push(performance.now());
        }
      },
    };
    session = createAgentSession(observed, { storageKey: false });
    let wasStreaming = false;
    session.subscribe(() => {
      const streaming = session!.getSnapshot().status === "streaming";
      if (wasStreaming && !streaming) leftStreamingAt ??= performance.now();
      wasStreaming = streaming;
    });
  },
  statuses: () => statuses,
  /** The page's clock when its adapter was created and when it was first `ready` (bench/shared-engine/). */
  times: () => ({ startedAt, readyAt }),
  status: () => adapter!.status(),
  models: () => adapter!.models(),
  parts: () => parts.map(({ part }) => part),
  usages: () => usages,
  loads: () => loads,
  generateCalls: () => generateCalls,
  crossOriginIsolated: () => globalThis.crossOriginIsolated === true,
  async prepare() {
    await adapter!.prepare();
  },
  /** prepare() aborted once the download passed `fraction`; resolves with how it ended. */
  async prepareAndAbort(fraction: number) {
    const controller = new AbortController();
    const stop = adapter!.subscribe(() => {
      const status = adapter!.status();
      if (status.state === "downloading" && status.progress >= fraction) controller.abort();
    });
    try {
      await adapter!.prepare(controller.signal);
      return "completed";
    } catch (error) {
      return (error as Error).name;
    } finally {
      stop();
    }
  },
  async deleteModel(id: string) {
    await adapter!.deleteModel(id);
  },
  snapshot() {
    const { messages, status, error, adapterStatus } = session!.getSnapshot();
    return { messages, status, error, adapterStatus };
  },
  send: (text: string) => session!.send(text),
  stop() {
    leftStreamingAt = undefined;
    stopAt = performance.now();
    session!.stop();
  },
  timings: () => ({ stopAt, leftStreamingAt, runEndedAt, afterStop: stopAt === undefined ? [] : parts.filter(({ at }) => at >= stopAt!) }),
  /** Model files in the Cache API, for a repo. */
  async cachedFiles(repo: string) {
    const cache = await caches.open("web-agents-models-v1");
    return (await cache.keys()).map((request) => request.url).filter((url) => url.includes(`/${repo}/resolve/`));
  },
  /** The IndexedDB manifests' keys. */
  async manifestKeys(): Promise<string[]> {
    const { createStore, keys } = await import("idb-keyval");
    return (await keys(createStore("web-agents-models", "manifests"))).map(String);
  },
};
Object.assign(window, { harness });
// `#start=<StartOptions as JSON>`: the page starts its adapter as it loads, as
// a site's page does, with no call from the test in between (the bench's page
// load to `ready`).
const startOnLoad = new URLSearchParams(location.hash.slice(1)).get("start");
if (startOnLoad) await harness.start(JSON.parse(startOnLoad) as StartOptions);
document.body.dataset.ready = "true";
