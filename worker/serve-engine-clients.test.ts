import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPTED_TOOL_CALL, ensureTestModel, scriptedModel, tinyModel } from "../models/test-models/index.js";
import { createEngineClient, type EngineClient } from "./engine-client.js";
import { createEngineHost } from "./engine-host.js";
import type { ModelStore } from "./model-cache.js";
import type { EngineEvent, LoadProgress, StepRequest } from "./protocol.js";
import { serveEngineClients } from "./serve-engine-clients.js";
import { sharedWorkerEndpoint } from "./shared-worker-endpoint.js";
import { memoryLocks } from "./test-fixtures/memory-locks.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";
import { TransformersEngine } from "./transformers-engine.js";

// The shared worker's two ends in one thread: one real host and transformers.js engine
// served to several "tabs" (each a MessageChannel and the real endpoint and client). Node has
// no SharedWorker and, before 22, no Web Locks: the connect event is a call, the locks a double
// (test-fixtures/memory-locks.ts). The real SharedWorker is tested in local-adapter.shared.browser.test.ts.
describe("one engine host served to several tabs (the SharedWorker's protocol), on the real transformers.js", () => {
  const scripted = testModelSource("scripted");
  const tiny = testModelSource("tiny");
  const locks = memoryLocks();
  let engine: TransformersEngine;
  let restarts = 0;
  /** How each generation ended in the engine, by the host's id for it. */
  const ended = new Map<string, string>();
  /** Waiters for the engine's next raw event of any tab's generation named `id` (the host's id ends with `:<id>`). */
  const waiters: { suffix: string; resolve: () => void }[] = [];
  const generating = (id: string) => new Promise<void>((resolve) => waiters.push({ suffix: `:${id}`, resolve }));
  const store: ModelStore = { cacheStatus: async () => ({ cached: true }), download: async () => {}, deleteModel: async () => {} };
  let clients: ReturnType<typeof serveEngineClients>;

  const observedEngine = (): TransformersEngine =>
    new Proxy(engine, {
      get(target, property) {
        if (property !== "generate") return (Reflect.get(target, property) as () => unknown).bind(target);
        return (...[request, onEvent, signal]: Parameters<TransformersEngine["generate"]>) =>
          target.generate(request, (event) => {
            for (const waiter of waiters.filter(({ suffix }) => request.id.endsWith(suffix))) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve();
            }
            if (event.type === "finish") ended.set(request.id, event.reason);
            onEvent(event);
          }, signal);
      },
    });

  /** A tab: its own channel to the one host, through the real endpoint and client. */
  const openTab = (): EngineClient =>
    createEngineClient({
      spawn: () => {
        const { port1, port2 } = new MessageChannel();
        clients.connect(port2 as never);
        return sharedWorkerEndpoint({ port: port1 as never, addEventListener: () => {} }, locks);
      },
    });
  const request = (overrides: Partial<StepRequest>): StepRequest => ({
    id: "g",
    model: scripted,
    conversationId: "c",
    conversation: [{ id: "u", role: "user", parts: [{ type: "text", text: "Buy socks" }] }],
    tools: [],
    temperature: 0,
    ...overrides,
  });
  /** The host's id for a tab's generation: `<tab's lock>:<id>`, whatever the tab's lock is named. */
  const hostIdEnding = (id: string) => [...ended.keys()].filter((key) => key.endsWith(`:${id}`));

  beforeAll(async () => {
    const [model] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
    engine = new TransformersEngine({ localModelPath: `${dirname(model.folder)}/` });
    const host = createEngineHost({ engines: { transformers: observedEngine }, store, requireCached: false });
    void locks.request("engine", () => new Promise(() => {}));
    clients = serveEngineClients(host, { workerLock: "engine", clientGone: (client) => locks.request(client, () => {}) as Promise<void>, restart: () => (restarts += 1) });
  }, 120_000);

  it("a second tab is ready without loading again (one model read), and both tabs' generations with the same id answer", async () => {
    const [a, b] = [openTab(), openTab()];
    const progress: [LoadProgress[], LoadProgress[]] = [[], []];
    await a.load(scripted, (p) => progress[0].push(p));
    await b.load(scripted, (p) => progress[1].push(p));
    // A load that reads the files reports 0 first; the model the host holds reports only 1.
    expect(progress[0][0]).toEqual({ progress: 0 });
    expect(progress[1]).toEqual([{ progress: 1 }]);

    const events: [EngineEvent[], EngineEvent[]] = [[], []];
    await Promise.all([a.generate(request({}), (e) => events[0].push(e)), b.generate(request({}), (e) => events[1].push(e))]);
    for (const tab of events) {
      expect(tab.find((event) => event.type === "tool-call")).toEqual({ type: "tool-call", name: DEFAULT_SCRIPTED_TOOL_CALL.name, input: DEFAULT_SCRIPTED_TOOL_CALL.arguments });
      expect(tab.at(-1)).toEqual({ type: "finish", reason: "stop" });
    }
    expect(hostIdEnding("g")).toHaveLength(2);
    a.terminate();
    b.terminate();
  }, 60_000);

  it("a tab's cancel reaches its own generation only, and one waiting behind another tab's ends at once", async () => {
    const [a, b] = [openTab(), openTab()];
    await Promise.all([a.load(tiny, () => {}), b.load(tiny, () => {})]);
    const aEvents: EngineEvent[] = [];
    const bEvents: EngineEvent[] = [];
    // Both named "long": A runs, B waits its turn in the engine's queue.
    const started = generating("long");
    const running = a.generate(request({ id: "long", model: tiny, maxNewTokens: 5000 }), (e) => aEvents.push(e));
    await started;
    const waiting = b.generate(request({ id: "long", model: tiny, maxNewTokens: 5000 }), (e) => bEvents.push(e));
    await b.cancel("long");
    await waiting;
    expect(bEvents.at(-1)).toEqual({ type: "finish", reason: "aborted" });
    // A's generation, with the same id, still runs.
    expect(aEvents.some((event) => event.type === "finish")).toBe(false);
    await a.cancel("long");
    await running;
    expect(aEvents.at(-1)).toEqual({ type: "finish", reason: "aborted" });
    a.terminate();
    b.terminate();
  }, 60_000);

  it("a tab that goes mid-generation has its own generation cancelled, and the other tab's runs on", async () => {
    const [a, b] = [openTab(), openTab()];
    await Promise.all([a.load(tiny, () => {}), b.load(tiny, () => {})]);
    const started = generating("gone");
    const aRunning = a.generate(request({ id: "gone", model: tiny, maxNewTokens: 5000 }), () => {});
    await started;
    // The tab closes: its lock is released (terminate here; the browser does it for a closed tab).
    a.terminate();
    await expect(aRunning).rejects.toMatchObject({ code: "worker_died" });
    const bEvents: EngineEvent[] = [];
    await b.generate(request({ id: "after" }), (e) => bEvents.push(e));
    expect(bEvents.at(-1)).toEqual({ type: "finish", reason: "stop" });
    // The engine ended the gone tab's generation as aborted, before the other tab's ran.
    expect(hostIdEnding("gone").map((id) => ended.get(id))).toEqual(["aborted"]);
    b.terminate();
  }, 60_000);

  it("a load that fails ends the worker after its answer, so the next tab starts a fresh one", async () => {
    const tab = openTab();
    const before = restarts;
    await expect(tab.load(testModelSource("elsewhere"), () => {})).rejects.toMatchObject({ code: "load_failed" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(restarts - before).toBe(1);
  });
});
