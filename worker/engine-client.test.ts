import { dirname } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { CatalogEntry } from "../models/catalog-schema.js";
import { DEFAULT_SCRIPTED_TOOL_CALL, ensureTestModel, scriptedModel, tinyModel } from "../models/test-models/index.js";
import { createLocalAdapter } from "../runtime/adapters/local/create-local-adapter.js";
import { createEngineClient, type WorkerLike } from "./engine-client.js";
import { EngineError } from "./engine-error.js";
import { createEngineHost } from "./engine-host.js";
import { exposeEngineHost } from "./expose-engine-host.js";
import type { ModelStore } from "./model-cache.js";
import type { EngineEvent, EngineHost, LoadProgress, StepRequest } from "./protocol.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";
import { TransformersEngine } from "./transformers-engine.js";

// The worker boundary in one thread (comlink's own test pattern): the real
// host and transformers.js engine on one end of a MessageChannel, the client
// on the other. The store is an in-memory double: the Cache API and
// IndexedDB are tested in Chromium.
function memoryStore(cached: Set<string>): ModelStore & { downloads: number } {
  return {
    downloads: 0,
    cacheStatus: async (model) => ({ cached: cached.has(model.key) }),
    async download(model, onProgress, signal) {
      this.downloads += 1;
      if (model.key.startsWith("huge")) {
        throw new EngineError({ code: "quota_exceeded", message: "Needs 5.0 GB, 1.0 GB free.", neededBytes: 5e9, freeBytes: 1e9 });
      }
      for (let loaded = 1; loaded <= 4; loaded += 1) {
        signal.throwIfAborted();
        await new Promise((resolve) => setTimeout(resolve, 5));
        onProgress({ loadedBytes: loaded * 100, totalBytes: 400, file: "onnx/model.onnx" });
      }
      cached.add(model.key);
    },
    deleteModel: async (model) => void cached.delete(model.key),
  };
}

describe("the engine client and host over a MessageChannel, on the real transformers.js", () => {
  const scripted = testModelSource("scripted");
  const tiny = testModelSource("tiny");
  let engine: TransformersEngine;
  const cached = new Set([scripted.key, tiny.key]);
  const store = memoryStore(cached);
  const hosts: EngineHost[] = [];
  const endpoints: (WorkerLike & EventTarget)[] = [];
  let loadCalls = 0;
  /** Resolves at the engine's next raw event of generation `id`, before the format reads it (and may hold it back). */
  const rawEventWaiters = new Map<string, () => void>();
  const generating = (id: string) => new Promise<void>((resolve) => rawEventWaiters.set(id, resolve));
  const observedEngine = (): TransformersEngine =>
    new Proxy(engine, {
      get(target, property) {
        if (property === "generate") {
          return (...[request, onEvent, signal]: Parameters<TransformersEngine["generate"]>) =>
            target.generate(request, (event) => {
              rawEventWaiters.get(request.id)?.();
              rawEventWaiters.delete(request.id);
              onEvent(event);
            }, signal);
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });

  const spawn = (): WorkerLike => {
    const { port1, port2 } = new MessageChannel();
    const host = createEngineHost({ engines: { transformers: observedEngine }, store, probe: async () => ({ webgpu: false, fallbackAdapter: false, shaderF16: false, cores: 2, crossOriginIsolated: false }) });
    const counted: EngineHost = { ...host, load: (model, onProgress) => ((loadCalls += 1), host.load(model, onProgress)) };
    hosts.push(host);
    exposeEngineHost(counted, port2 as never);
    const worker = Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as WorkerLike & EventTarget;
    endpoints.push(worker);
    return worker;
  };
  const client = createEngineClient({ spawn });
  const request = (overrides: Partial<StepRequest>): StepRequest => ({
    id: "g",
    model: scripted,
    conversationId: "c",
    conversation: [{ id: "u", role: "user", parts: [{ type: "text", text: "Buy socks" }] }],
    tools: [],
    temperature: 0,
    ...overrides,
  });

  beforeAll(async () => {
    const [model] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
    engine = new TransformersEngine({ localModelPath: `${dirname(model.folder)}/` });
  }, 120_000);

  it("loads a model with progress, then streams the scripted tool call", async () => {
    const progress: LoadProgress[] = [];
    await client.load(scripted, (p) => progress.push(p));
    expect(loadCalls).toBe(1);
    expect(progress.at(-1)).toEqual({ progress: 1 });

    const events: EngineEvent[] = [];
    await client.generate(request({ id: "g1" }), (event) => events.push(event));
    // The worker read the model's text with its format: the call arrives parsed, no raw text.
    expect(events.filter((event) => event.type === "text-delta")).toEqual([]);
    expect(events.find((event) => event.type === "tool-call")).toEqual({ type: "tool-call", name: DEFAULT_SCRIPTED_TOOL_CALL.name, input: DEFAULT_SCRIPTED_TOOL_CALL.arguments });
    // The last event arrives before generate resolves.
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  }, 30_000);

  it("rebuilds errors as typed EngineErrors with their fields", async () => {
    const notCached = await client.load(testModelSource("elsewhere"), () => {}).catch((error: unknown) => error);
    expect(notCached).toBeInstanceOf(EngineError);
    expect(notCached).toMatchObject({ code: "not_cached" });

    const quota = await client.download("d1", testModelSource("huge"), () => {}).catch((error: unknown) => error);
    expect(EngineError.isInstance(quota)).toBe(true);
    expect(quota).toMatchObject({ code: "quota_exceeded", neededBytes: 5e9, freeBytes: 1e9 });
  });

  it("downloads with byte progress into the store", async () => {
    const model = testModelSource("fresh");
    const seen: number[] = [];
    const before = store.downloads;
    await client.download("a", model, (p) => seen.push(p.loadedBytes));
    expect(store.downloads - before).toBe(1);
    expect(seen).toEqual([100, 200, 300, 400]);
    expect(await client.cacheStatus(model)).toEqual({ cached: true });
  });

  // The client sends each call as it is: concurrent prepares are shared once, in the adapter
  // (runtime/adapters/shared-preparation.ts), so the worker sees one download and one load.
  it("two prepares of one local adapter at once: one download and one load in the worker, both ready, progress in the status", async () => {
    const entry: CatalogEntry = {
      id: "prepared-twice",
      label: "Test model: prepared twice",
      brief: "For tests only.",
      parameters: 1,
      testModel: true,
      baseUrl: "/models",
      variants: [{ id: "wasm-fp32", engine: "transformers", device: "wasm", dtype: "fp32", repo: scripted.repo, requiresShaderF16: false, files: [], bytes: 400 }],
    };
    const adapter = createLocalAdapter({ id: "prepared-twice", catalog: { models: [entry], rememberModel: false, autoLoad: false }, worker: { host: client } });
    const statuses = [adapter.status()];
    adapter.subscribe(() => statuses.push(adapter.status()));
    const [downloads, loads] = [store.downloads, loadCalls];
    await Promise.all([adapter.prepare(), adapter.prepare()]);
    expect([store.downloads - downloads, loadCalls - loads]).toEqual([1, 1]);
    expect(statuses).toContainEqual({ state: "downloading", progress: 1 });
    expect(statuses.at(-1)).toEqual({ state: "ready" });
  }, 30_000);

  it("cancel(id) ends a generation promptly with reason aborted", async () => {
    // The tiny model's greedy output is blank lines, which the format holds back until text or a
    // tag comes: no event reaches the client, so cancel on the engine's first raw token instead.
    const events: EngineEvent[] = [];
    let cancelledAt = 0;
    await client.load(tiny, () => {});
    const started = generating("long");
    const running = client.generate(request({ id: "long", model: tiny, maxNewTokens: 5000 }), (event) => events.push(event));
    await started;
    expect(events.some((event) => event.type === "finish")).toBe(false);
    cancelledAt = performance.now();
    await client.cancel("long");
    await running;
    expect(performance.now() - cancelledAt).toBeLessThan(500);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "aborted" });
  }, 30_000);

  it("fails the call in flight with worker_died when the worker dies, and the next call starts a new worker", async () => {
    const spawned = endpoints.length;
    const started = generating("doomed");
    const running = client.generate(request({ id: "doomed", model: tiny, maxNewTokens: 5000 }), () => {});
    // Kill it mid-generation, so the host has a generation to cancel afterwards.
    await started;
    endpoints.at(-1)!.dispatchEvent(new Event("error"));
    await expect(running).rejects.toMatchObject({ code: "worker_died" });
    // The "dead" host shares this thread: stop its generation so it does not burn the CPU.
    await hosts.at(-1)!.cancel("doomed");

    const events: EngineEvent[] = [];
    await client.generate(request({ id: "after" }), (event) => events.push(event));
    expect(endpoints.length).toBe(spawned + 1);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  }, 30_000);

  it("onStopped: told when the worker stops on its own (its model is gone), not when the client terminates it", async () => {
    let stopped = 0;
    const watched = createEngineClient({ spawn });
    watched.onStopped(() => (stopped += 1));
    await watched.probe();
    endpoints.at(-1)!.dispatchEvent(new Event("error"));
    await vi.waitFor(() => expect(stopped).toBe(1));
    await watched.probe();
    watched.terminate();
    await watched.probe();
    expect(stopped).toBe(1);
    watched.terminate();
  });

  it("terminate() fails calls in flight with worker_died", async () => {
    const started = generating("t");
    const running = client.generate(request({ id: "t", model: tiny, maxNewTokens: 5000 }), () => {});
    await started;
    client.terminate();
    await expect(running).rejects.toMatchObject({ code: "worker_died" });
    await hosts.at(-1)!.cancel("t");
  }, 30_000);
});
