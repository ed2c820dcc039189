import { afterEach, describe, expect, it, vi } from "vitest";
import { CPU_FALLBACK_NOTE, CPU_SLOWER_NOTE, QWEN3_CATALOG, QWEN_CATALOG } from "../../../models/catalog.js";
import type { AdapterStatus } from "../../session/agent-adapter.js";
import { memoryStorage } from "../../test-support/memory-storage.js";
import { testModelEntries } from "../../testing/index.js";
import { createLocalAdapter, modelChoiceKey } from "./create-local-adapter.js";
import { EngineHostDouble, engineError } from "./test-fixtures/engine-host-double.js";

const SMALL_GPU_KEY = "qwen3-0.6b/webgpu-q4f16";
const smallGpuBytes = QWEN3_CATALOG[0]!.variants[0]!.bytes;

/** Every status the adapter reports, from the first `status()` on. */
function recordStatuses(adapter: ReturnType<typeof createLocalAdapter>): AdapterStatus[] {
  const seen: AdapterStatus[] = [adapter.status()];
  adapter.subscribe(() => seen.push(adapter.status()));
  return seen;
}

/** Resolves once `status()` leaves the first probe. */
async function probed(adapter: ReturnType<typeof createLocalAdapter>): Promise<void> {
  adapter.status();
  await adapter.selectModel("__wait__").catch(() => {});
}

describe("createLocalAdapter: status and prepare", () => {
  it("goes needs-download -> downloading -> loading -> ready through prepare, probing once", async () => {
    const engine = new EngineHostDouble();
    const adapter = createLocalAdapter({ worker: { host: engine } });
    expect(adapter).toMatchObject({ id: "local", label: "On this device" });
    const seen = recordStatuses(adapter);
    await probed(adapter);
    expect(adapter.status()).toEqual({ state: "needs-download", bytes: smallGpuBytes });
    await adapter.prepare();
    expect(seen).toEqual([
      { state: "loading" },
      { state: "needs-download", bytes: smallGpuBytes },
      { state: "downloading", progress: 0 },
      { state: "downloading", progress: 0.25 },
      { state: "downloading", progress: 0.5 },
      { state: "downloading", progress: 0.75 },
      { state: "downloading", progress: 1 },
      { state: "loading", progress: 0 },
      { state: "loading", progress: 0.5 },
      { state: "loading", progress: 1 },
      { state: "ready" },
    ]);
    expect(engine.count("probe")).toBe(1);
    expect(engine.count("download")).toBe(1);
    expect(engine.calls.find((call) => call.method === "download")?.arg).toMatchObject({
      model: { key: SMALL_GPU_KEY, baseUrl: "https://huggingface.co", repo: "onnx-community/Qwen3-0.6B-ONNX", dtype: "q4f16" },
    });
    expect(adapter.status()).toBe(adapter.status());
    await adapter.prepare();
    expect(engine.count("load")).toBe(1);
  });

  it("uses the CPU q8 variant with its note where there is no WebGPU, and a custom base URL", async () => {
    const engine = new EngineHostDouble({ capabilities: { webgpu: false, shaderF16: false } });
    const adapter = createLocalAdapter({ worker: { host: engine, baseUrl: "https://cdn.example.com/models/" } });
    await probed(adapter);
    const cpuBytes = QWEN3_CATALOG[0]!.variants.find((variant) => variant.id === "wasm-q8")!.bytes;
    expect(adapter.status()).toEqual({ state: "needs-download", bytes: cpuBytes, note: `${CPU_FALLBACK_NOTE} ${CPU_SLOWER_NOTE}` });
    expect(adapter.models()).toEqual([
      { id: "qwen3-0.6b", label: "Qwen3 0.6B (CPU)", brief: expect.stringMatching(/processor/), bytes: cpuBytes, cached: false, recommended: true, selected: true },
    ]);
    await adapter.prepare();
    expect(engine.calls.find((call) => call.method === "load")?.arg).toMatchObject({ device: "wasm", dtype: "q8", baseUrl: "https://cdn.example.com/models" });
  });

  it("is unavailable where no model can run", async () => {
    const noGpu = new EngineHostDouble({ capabilities: { webgpu: false, shaderF16: false } });
    const gpuOnly = createLocalAdapter({ catalog: { models: QWEN3_CATALOG.slice(1) }, worker: { host: noGpu } });
    await probed(gpuOnly);
    expect(gpuOnly.status()).toEqual({ state: "unavailable", reason: "No on-device model can run in this browser." });
    await expect(gpuOnly.prepare()).rejects.toMatchObject({ code: "unsupported_device", message: expect.stringMatching(/No on-device model/) });

  });

  it("reports an engine that cannot start as an error with a next step, and prepare() (Try again) starts it afresh", async () => {
    let attempts = 0;
    const engine = new EngineHostDouble();
    const adapter = createLocalAdapter({
      worker: { host: async () => {
        attempts += 1;
        // The first worker dies while probing, as a broken deploy's or a crashed worker does.
        if (attempts === 1) throw engineError("worker_died", "The model worker stopped (it crashed).");
        return engine;
      } },
    });
    await probed(adapter);
    expect(adapter.status()).toEqual({ state: "error", error: "The on-device model could not start in this browser. Try again, or use the cloud model.", code: "worker_died" });
    expect(JSON.stringify(adapter.status())).not.toMatch(/crashed/);
    await adapter.prepare();
    expect(attempts).toBe(2);
    expect(adapter.status()).toEqual({ state: "ready" });
  });

  it("leaves needs-download when the download is aborted, and cancels it in the engine", async () => {
    const engine = new EngineHostDouble({ hangDownloadAfter: 1 });
    const adapter = createLocalAdapter({ worker: { host: engine } });
    const seen = recordStatuses(adapter);
    const controller = new AbortController();
    const preparing = adapter.prepare(controller.signal);
    await statusReaches(adapter, (status) => status.state === "downloading" && status.progress > 0);
    controller.abort();
    // The adapter cancels in the engine from the abort listener itself.
    expect(engine.count("cancel")).toBe(1);
    await expect(preparing).rejects.toMatchObject({ name: "AbortError" });
    const downloadId = (engine.calls.find((call) => call.method === "download")!.arg as { id: string }).id;
    expect(engine.cancelled).toEqual([downloadId]);
    await statusReaches(adapter, (status) => status.state === "needs-download");
    expect(adapter.status()).toEqual({ state: "needs-download", bytes: smallGpuBytes });
    expect(seen.at(-1)).toEqual({ state: "needs-download", bytes: smallGpuBytes });
    expect(adapter.models()[0]).toMatchObject({ cached: false });
    expect(engine.count("load")).toBe(0);
  });

  it("shares one download and load between concurrent prepare calls; one caller aborting does not cancel it", async () => {
    const engine = new EngineHostDouble();
    const adapter = createLocalAdapter({ worker: { host: engine } });
    const leaving = new AbortController();
    const first = adapter.prepare(leaving.signal);
    const second = adapter.prepare(new AbortController().signal);
    const third = adapter.prepare();
    await statusReaches(adapter, (status) => status.state === "downloading");
    leaving.abort();
    await expect(first).rejects.toMatchObject({ name: "AbortError" });
    await Promise.all([second, third]);
    expect(adapter.status()).toEqual({ state: "ready" });
    expect([engine.count("download"), engine.count("load"), engine.count("cancel")]).toEqual([1, 1, 0]);
  });

  it("loads a model already on this device without a download card, reporting load progress", async () => {
    const engine = new EngineHostDouble({ cached: [SMALL_GPU_KEY] });
    const adapter = createLocalAdapter({ worker: { host: engine } });
    const seen = recordStatuses(adapter);
    await statusReaches(adapter, (status) => status.state === "ready");
    expect(seen).toEqual([
      { state: "loading" },
      { state: "loading", progress: 0 },
      { state: "loading", progress: 0.5 },
      { state: "loading", progress: 1 },
      { state: "ready" },
    ]);
    expect(engine.count("download")).toBe(0);
    expect(adapter.models()[0]).toMatchObject({ id: "qwen3-0.6b", cached: true, selected: true });
  });

  it("reports a failed load as an error status, and prepare rejects with it", async () => {
    const engine = new EngineHostDouble({ cached: [SMALL_GPU_KEY], loadError: engineError("load_failed", "The model file is damaged.") });
    const adapter = createLocalAdapter({ catalog: { autoLoad: false }, worker: { host: engine } });
    await probed(adapter);
    await expect(adapter.prepare()).rejects.toThrow("The model file is damaged.");
    expect(adapter.status()).toEqual({ state: "error", error: "The model file is damaged.", code: "load_failed" });
  });
});

describe("createLocalAdapter: models and selectModel", () => {
  it("lists label, brief, bytes, cached, recommended and selected", async () => {
    const engine = new EngineHostDouble({ cached: ["qwen3-1.7b/webgpu-q4f16"] });
    // The default catalog loads with the first probe (off the first render): nothing listed before it.
    expect(createLocalAdapter({ worker: { host: new EngineHostDouble() } }).models()).toEqual([]);
    const given = createLocalAdapter({ catalog: { models: QWEN3_CATALOG }, worker: { host: new EngineHostDouble() } });
    expect(given.models().map((model) => model.id)).toEqual(["qwen3-0.6b", "qwen3-1.7b", "qwen3-4b"]);
    const adapter = createLocalAdapter({ catalog: { autoLoad: false }, worker: { host: engine } });
    await probed(adapter);
    expect(adapter.models()).toEqual(
      QWEN3_CATALOG.map((entry) => ({
        id: entry.id,
        label: entry.label,
        brief: entry.brief,
        bytes: entry.variants[0]!.bytes,
        cached: entry.id === "qwen3-1.7b",
        recommended: entry.id === "qwen3-0.6b",
        selected: entry.id === "qwen3-0.6b",
      })),
    );
    expect(adapter.models()).toBe(adapter.models());
  });

  it("switches models, then describes the new one", async () => {
    const engine = new EngineHostDouble();
    const adapter = createLocalAdapter({ catalog: { model: "qwen3-4b" }, worker: { host: engine } });
    await probed(adapter);
    expect(adapter.models().find((model) => model.selected)?.id).toBe("qwen3-4b");
    await adapter.selectModel("qwen3-1.7b");
    expect(adapter.status()).toEqual({ state: "needs-download", bytes: QWEN3_CATALOG[1]!.variants[0]!.bytes });
    await expect(adapter.selectModel("gpt-9")).rejects.toMatchObject({ name: "WebAgentsError", code: "unknown_model", message: 'There is no model "gpt-9".' });
  });

  it("rejects a switch while a download is in progress", async () => {
    const engine = new EngineHostDouble({ hangDownloadAfter: 1 });
    const adapter = createLocalAdapter({ worker: { host: engine } });
    const controller = new AbortController();
    const preparing = adapter.prepare(controller.signal).catch(() => {});
    // A caller without a signal shares the download and settles only once the preparation has let go
    // (the aborted caller returns at once, and needs-download is dispatched just before the end).
    const shared = adapter.prepare().catch(() => {});
    await statusReaches(adapter, (status) => status.state === "downloading");
    await expect(adapter.selectModel("qwen3-1.7b")).rejects.toMatchObject({ code: "model_busy", message: expect.stringMatching(/download/) });
    controller.abort();
    await Promise.all([preparing, shared]);
    expect(adapter.status().state).toBe("needs-download");
    await adapter.selectModel("qwen3-1.7b");
    expect(adapter.models().find((model) => model.selected)?.id).toBe("qwen3-1.7b");
  });

  it("rejects a switch while the model on this device is starting, saying so", async () => {
    const engine = new EngineHostDouble({ cached: [SMALL_GPU_KEY] });
    const adapter = createLocalAdapter({ worker: { host: engine } });
    const preparing = adapter.prepare();
    await statusReaches(adapter, (status) => status.state === "loading" && status.progress !== undefined);
    await expect(adapter.selectModel("qwen3-1.7b")).rejects.toMatchObject({ code: "model_busy", message: "The model is still starting on this device. Switch models once it is ready." });
    await preparing;
    await adapter.selectModel("qwen3-1.7b");
    expect(adapter.models().find((model) => model.selected)?.id).toBe("qwen3-1.7b");
  });

  it("rejects a switch while a reply is in progress", async () => {
    const engine = new EngineHostDouble({ cached: [SMALL_GPU_KEY], script: () => ({ chunks: ["Thinking"], hang: true }) });
    const adapter = createLocalAdapter({ worker: { host: engine } });
    await adapter.prepare();
    const controller = new AbortController();
    const iterator = adapter
      .run({ messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "Hi" }] }], tools: [], signal: controller.signal, callTool: async () => ({ content: [] }) })
      [Symbol.asyncIterator]();
    await iterator.next();
    await expect(adapter.selectModel("qwen3-1.7b")).rejects.toMatchObject({ code: "model_busy", message: expect.stringMatching(/reply/) });
    await expect(adapter.deleteModel("qwen3-0.6b")).rejects.toMatchObject({ name: "WebAgentsError", code: "model_busy", message: "Wait for the reply to finish, or stop it, before deleting a model." });
    controller.abort();
    while (!(await iterator.next()).done);
    await expect(adapter.deleteModel("gpt-9")).rejects.toMatchObject({ code: "unknown_model", message: 'There is no model "gpt-9" on this device.' });
    await adapter.selectModel("qwen3-1.7b");
  });

  it("with QWEN_CATALOG, recommends and selects Qwen3.5 0.8B where WebGPU runs it and Qwen3 0.6B on the CPU, one at a time", async () => {
    const recommended = (adapter: ReturnType<typeof createLocalAdapter>) => adapter.models().filter((model) => model.recommended).map((model) => model.id);
    const gpu = new EngineHostDouble();
    const onGpu = createLocalAdapter({ catalog: { models: QWEN_CATALOG, autoLoad: false }, worker: { host: gpu } });
    expect(recommended(onGpu)).toEqual(["qwen3.5-0.8b"]);
    await probed(onGpu);
    expect(onGpu.models().map((model) => model.id)).toEqual(["qwen3.5-0.8b", "qwen3.5-2b", "qwen3.5-4b", "qwen3-0.6b", "qwen3-1.7b", "qwen3-4b"]);
    expect(recommended(onGpu)).toEqual(["qwen3.5-0.8b"]);
    expect(onGpu.models().find((model) => model.selected)?.id).toBe("qwen3.5-0.8b");
    await onGpu.prepare();
    // On transformers.js, from the -OPT export: no Scan per prompt position, and the exact tool-call constraint (models/qwen35-catalog.ts).
    expect(gpu.calls.find((call) => call.method === "load")?.arg).toMatchObject({ key: "qwen3.5-0.8b/webgpu-q4f16", engine: "transformers", format: "qwen3.5", repo: "onnx-community/Qwen3.5-0.8B-ONNX-OPT" });

    const onCpu = createLocalAdapter({ catalog: { models: QWEN_CATALOG, autoLoad: false }, worker: { host: new EngineHostDouble({ capabilities: { webgpu: false, shaderF16: false } }) } });
    await probed(onCpu);
    expect(onCpu.models().map((model) => model.id)).toEqual(["qwen3-0.6b"]);
    expect(recommended(onCpu)).toEqual(["qwen3-0.6b"]);
    expect(onCpu.status()).toMatchObject({ state: "needs-download", note: `${CPU_FALLBACK_NOTE} ${CPU_SLOWER_NOTE}` });
  });

  it("on a software WebGPU adapter, recommends and selects the model that runs on the processor", async () => {
    const software = createLocalAdapter({ catalog: { models: QWEN_CATALOG, autoLoad: false }, worker: { host: new EngineHostDouble({ capabilities: { shaderF16: false, fallbackAdapter: true } }) } });
    await probed(software);
    expect(software.models().filter((model) => model.recommended).map((model) => model.id)).toEqual(["qwen3-0.6b"]);
    expect(software.models().find((model) => model.selected)).toMatchObject({ id: "qwen3-0.6b", label: "Qwen3 0.6B (CPU)" });
    expect(software.status()).toMatchObject({ state: "needs-download", note: expect.stringMatching(/software.*processor/) });
  });

  it("adds the test models only when asked (testModelEntries, from @webmcp-agents/chat/testing)", async () => {
    const engine = new EngineHostDouble();
    expect(createLocalAdapter({ worker: { host: engine } }).models().some((model) => model.id.startsWith("test-"))).toBe(false);
    const models = [...QWEN3_CATALOG, ...testModelEntries({ baseUrl: "http://127.0.0.1:4173/models" })];
    const adapter = createLocalAdapter({ catalog: { models, model: "test-scripted" }, worker: { host: engine } });
    await probed(adapter);
    expect(adapter.models().map((model) => model.id)).toEqual(["qwen3-0.6b", "qwen3-1.7b", "qwen3-4b", "test-tiny", "test-scripted"]);
    await adapter.prepare();
    expect(engine.calls.find((call) => call.method === "load")?.arg).toMatchObject({
      key: "test-scripted/webgpu-fp32",
      repo: "scripted",
      baseUrl: "http://127.0.0.1:4173/models",
    });
  });
});

describe("createLocalAdapter: the person's model choice, remembered", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("remembers the model picked (or downloaded) under web-agents:model:<id> and selects it on the next visit, over `model`, where it runs", async () => {
    const storage = memoryStorage();
    vi.stubGlobal("localStorage", storage);
    const first = createLocalAdapter({ worker: { host: new EngineHostDouble() } });
    await probed(first);
    await first.selectModel("qwen3-1.7b");
    expect(storage.getItem(modelChoiceKey("local"))).toBe("qwen3-1.7b");
    expect(modelChoiceKey("local")).toBe("web-agents:model:local");

    // The next visit: a new adapter, the same choice, before and after the probe.
    const next = createLocalAdapter({ catalog: { models: QWEN3_CATALOG, model: "qwen3-4b" }, worker: { host: new EngineHostDouble({ cached: ["qwen3-1.7b/webgpu-q4f16"] }) } });
    expect(next.models().find((model) => model.selected)?.id).toBe("qwen3-1.7b");
    await probed(next);
    expect(next.models().find((model) => model.selected)).toMatchObject({ id: "qwen3-1.7b", cached: true });
    // On this device already: it loads by itself, no download card.
    await statusReaches(next, (status) => status.state === "ready");
    expect(next.status()).toEqual({ state: "ready" });

    // A download started on the default is a choice too.
    storage.clear();
    const downloads = createLocalAdapter({ id: "shop", worker: { host: new EngineHostDouble() } });
    await downloads.prepare();
    expect(storage.getItem("web-agents:model:shop")).toBe("qwen3-0.6b");
  });

  it("falls back to `model`, then the recommended one, where the remembered model does not run; rememberModel renames or turns it off", async () => {
    const storage = memoryStorage();
    vi.stubGlobal("localStorage", storage);
    storage.setItem(modelChoiceKey("local"), "qwen3-4b");
    const cpu = { capabilities: { webgpu: false, shaderF16: false } };
    const onCpu = createLocalAdapter({ catalog: { models: QWEN_CATALOG, model: "qwen3-0.6b" }, worker: { host: new EngineHostDouble(cpu) } });
    await probed(onCpu);
    expect(onCpu.models().find((model) => model.selected)?.id).toBe("qwen3-0.6b");

    const off = createLocalAdapter({ catalog: { rememberModel: false, model: "qwen3-1.7b" }, worker: { host: new EngineHostDouble() } });
    await probed(off);
    expect(off.models().find((model) => model.selected)?.id).toBe("qwen3-1.7b");
    await off.selectModel("qwen3-0.6b");
    expect(storage.getItem(modelChoiceKey("local"))).toBe("qwen3-4b");

    const renamed = createLocalAdapter({ catalog: { rememberModel: "my-site:model" }, worker: { host: new EngineHostDouble() } });
    await probed(renamed);
    await renamed.selectModel("qwen3-1.7b");
    expect(storage.getItem("my-site:model")).toBe("qwen3-1.7b");
  });
});

describe("createLocalAdapter: ONNX Runtime WASM threads", () => {
  /** The `threads` of every model source the adapter handed its engine, by method. */
  async function threadsSent(options: Parameters<typeof createLocalAdapter>[0], capabilities: ConstructorParameters<typeof EngineHostDouble>[0]) {
    const engine = new EngineHostDouble(capabilities);
    const adapter = createLocalAdapter({ ...options, worker: { ...options?.worker, host: engine } });
    await probed(adapter);
    await adapter.prepare();
    for await (const _part of adapter.run({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }], tools: [], signal: new AbortController().signal, callTool: async () => ({ content: [] }) })) {
      // drain
    }
    const sources = engine.calls.map((call) => ({ method: call.method, arg: call.arg as { threads?: number; model?: { threads?: number } } | undefined }));
    return sources
      .filter(({ method }) => ["cacheStatus", "download", "load", "generate"].includes(method))
      .map(({ method, arg }) => [method, arg?.model?.threads ?? arg?.threads] as const);
  }

  it("defaults to min(4, cores - 1) on a cross-origin isolated page, on every model source", async () => {
    const sent = await threadsSent({}, { capabilities: { webgpu: false, shaderF16: false, cores: 8, crossOriginIsolated: true } });
    expect(new Set(sent.map(([method]) => method))).toEqual(new Set(["cacheStatus", "download", "load", "generate"]));
    expect(sent.every(([, threads]) => threads === 4)).toBe(true);
    const few = await threadsSent({}, { capabilities: { webgpu: false, shaderF16: false, cores: 2, crossOriginIsolated: true } });
    expect(few.every(([, threads]) => threads === 1)).toBe(true);
  });

  it("defaults to 1 where the page is not isolated", async () => {
    const sent = await threadsSent({}, { capabilities: { webgpu: false, shaderF16: false, cores: 16, crossOriginIsolated: false } });
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every(([, threads]) => threads === 1)).toBe(true);
  });

  it("takes the threads option over the default", async () => {
    const sent = await threadsSent({ worker: { threads: 2 } }, { capabilities: { webgpu: false, shaderF16: false, cores: 16, crossOriginIsolated: true } });
    expect(sent.every(([, threads]) => threads === 2)).toBe(true);
  });
});

/** Resolves once the adapter's status satisfies `check`: now, or at the status change that makes it so. */
function statusReaches(adapter: ReturnType<typeof createLocalAdapter>, check: (status: AdapterStatus) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check(adapter.status())) return resolve();
    const unsubscribe = adapter.subscribe(() => {
      if (!check(adapter.status())) return;
      unsubscribe();
      resolve();
    });
  });
}

describe("createLocalAdapter: an option name it does not take", () => {
  it("is a TypeError naming the grouped name for each name from before the options were grouped", () => {
    const moved = { engine: "worker.host", models: "catalog.models", model: "catalog.model", rememberModel: "catalog.rememberModel", autoLoad: "catalog.autoLoad", baseUrl: "worker.baseUrl", threads: "worker.threads", constrainToolCalls: "generation.constrainToolCalls" };
    for (const [name, instead] of Object.entries(moved)) {
      // A plain-JavaScript caller: the type already refuses these names.
      expect(() => createLocalAdapter({ [name]: 1 } as never), name).toThrow(new TypeError(`createLocalAdapter does not take the option "${name}": pass ${instead} instead (see docs/api/create-local-adapter.md).`));
    }
  });

  it("is a TypeError listing the names it takes for any other; an undefined one is no option", () => {
    expect(() => createLocalAdapter({ modle: "qwen3-0.6b" } as never)).toThrow('createLocalAdapter does not take the option "modle": it takes id, label, maxSteps, catalog, worker, generation');
    expect(() => createLocalAdapter({ model: undefined, worker: { host: new EngineHostDouble() } } as never)).not.toThrow();
  });
});
