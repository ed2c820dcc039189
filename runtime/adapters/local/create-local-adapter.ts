import { QWEN3_CATALOG } from "../../../models/catalog.js";
import type { CatalogEntry } from "../../../models/catalog-schema.js";
import { testModelEntries, type TestModelEntriesOptions } from "../../../models/catalog-test-models.js";
import { resolveVariant, toModelSource, type ResolvedVariant, type ResolveVariantOptions } from "../../../models/resolve-variant.js";
import type { CacheStatus, DeviceCapabilities, EngineHost, GenerateRequest, ModelSource } from "../../../worker/protocol.js";
import { defaultWasmThreads } from "../../../worker/wasm-threads.js";
import type { AdapterStatus, AgentAdapter, ModelChoice } from "../../session/agent-adapter.js";
import type { AgentErrorCode, AgentStreamPart } from "../../session/agent-stream-part.js";
import { abortable, abortError } from "../abortable.js";
import { describeEngineError, engineErrorCode, engineErrorPart, withDescribedMessage } from "./describe-engine-error.js";
import { loadDefaultEngine } from "./load-default-engine.js";
import { runLocalSteps } from "./run-local-steps.js";

/** What `createLocalAdapter` takes. Every field is optional. */
export interface LocalAdapterOptions {
  /** The engine. Default: the Web Worker client, loaded lazily on the first `status()`. Tests pass a double. */
  engine?: EngineHost | (() => Promise<EngineHost>);
  /** The models to offer. Default: the Qwen3 catalog (`QWEN3_CATALOG`). */
  models?: readonly CatalogEntry[];
  /** The model selected at first. Default: the recommended one this device can run, else the first it can. */
  model?: string;
  /** Where model files come from: `${baseUrl}/${repo}/resolve/main/${path}`. Default `"https://huggingface.co"`. */
  baseUrl?: string;
  /** Tool steps per user message when the agent sets no `maxSteps`. Default 8. */
  maxSteps?: number;
  /** Default `"local"`. */
  id?: string;
  /** Default `"On this device"`. */
  label?: string;
  /** Adds the project's test models (`testModelEntries`), served from `baseUrl`. Default: none. */
  testModels?: TestModelEntriesOptions;
  /** Engine preference among variants of the same rank. Default `["transformers", "web-llm"]`. */
  engines?: ResolveVariantOptions["engines"];
  /** Load a model that is already on this device as soon as it is selected (no network). Default true. */
  autoLoad?: boolean;
  /** Passed to every generation (`maxNewTokens`, `temperature`, `enableThinking`). */
  generation?: Pick<GenerateRequest, "maxNewTokens" | "temperature" | "enableThinking">;
  /**
   * ONNX Runtime's WASM threads for the transformers.js engine (the CPU path,
   * and the CPU ops under WebGPU). Default: `min(4, cores - 1)`, at least 1,
   * where the page is cross-origin isolated, else 1. More than one needs the
   * page cross-origin isolated (COOP `same-origin` + COEP `require-corp` or
   * `credentialless`); elsewhere the engine runs one, whatever this says.
   * Fixed for the adapter's worker by its first load.
   */
  threads?: number;
}

/** The local adapter: `AgentAdapter` with every optional member present, and `deleteModel`. */
export type LocalAdapter = Required<AgentAdapter> & {
  /**
   * Removes a downloaded model's files and manifest from this device. The
   * selected model goes back to `needs-download`. Rejects while a reply or a
   * download is in progress, and for an id `models()` does not list.
   */
  deleteModel(id: string): Promise<void>;
};

type Phase =
  | { state: "probing" }
  | { state: "unavailable"; reason: string }
  | { state: "needs-download" }
  | { state: "downloading"; progress: number }
  | { state: "loading"; progress: number }
  | { state: "ready" }
  | { state: "error"; error: string; code?: AgentErrorCode };

/** One download-and-load that every concurrent `prepare` shares; cancelled when every caller has aborted. */
interface Preparation {
  key: string;
  promise: Promise<void>;
  controller: AbortController;
  callers: number;
}

const UNAVAILABLE = "No on-device model can run in this browser.";
const START_FAILED = "The on-device model could not start in this browser. Try again, or use the cloud model.";

/**
 * An adapter whose model runs in this browser, in a Web Worker (WebGPU, or
 * WASM on the CPU), with the tool loop on the main thread.
 *
 * Status: the first `status()` probes the device and the cache once (no
 * network) and reports `loading` meanwhile; then `needs-download` (bytes,
 * and a note where the CPU variant is the one that runs) -> `prepare()` ->
 * `downloading` (0..1) -> `loading` (0..1, read from this device) ->
 * `ready`; `unavailable` where no catalog model can run, `error` when the
 * setup failed (`prepare()` again retries). A model already on this device
 * loads without a click (see `autoLoad`).
 */
export function createLocalAdapter(options: LocalAdapterOptions = {}): LocalAdapter {
  const entries: readonly CatalogEntry[] = [...(options.models ?? QWEN3_CATALOG), ...(options.testModels ? testModelEntries(options.testModels) : [])];
  const maxSteps = options.maxSteps ?? 8;
  const autoLoad = options.autoLoad ?? true;
  const listeners = new Set<() => void>();

  let engine: EngineHost | undefined;
  let capabilities: DeviceCapabilities | undefined;
  /** WASM threads for every model source, set once the probe has run. */
  let threads = 1;
  let initializing: Promise<void> | undefined;
  /** Runnable entries by id, in catalog order. */
  let runnable = new Map<string, ResolvedVariant>();
  const cached = new Map<string, boolean>();
  /** Entries whose saved copy was found broken and removed: the sentence that says so, shown until the next download starts. */
  const removedNotes = new Map<string, string>();
  let selectedId = options.model ?? entries.find((entry) => entry.recommended)?.id ?? entries[0]?.id;
  let loadedKey: string | undefined;
  let phase: Phase = { state: "probing" };
  let preparation: Preparation | undefined;
  let runs = 0;
  let statusSnapshot: AdapterStatus = { state: "loading" };
  let modelsSnapshot: readonly ModelChoice[] = [];

  const selected = () => (selectedId === undefined ? undefined : runnable.get(selectedId));
  /** What the engine gets for a variant: its files and where they come from, and the threads. */
  const modelSource = (resolved: ResolvedVariant): ModelSource => ({ ...toModelSource(resolved, options.baseUrl), threads });

  function snapshotStatus(): AdapterStatus {
    switch (phase.state) {
      case "probing":
        return { state: "loading" };
      case "needs-download": {
        const resolved = selected();
        const note = [resolved && removedNotes.get(resolved.entry.id), resolved?.note].filter(Boolean).join(" ");
        return { state: "needs-download", ...(resolved && { bytes: resolved.variant.bytes }), ...(note && { note }) };
      }
      default:
        return phase;
    }
  }

  function snapshotModels(): readonly ModelChoice[] {
    if (!capabilities) {
      return entries.map((entry) => ({ id: entry.id, label: entry.label, brief: entry.brief, ...(entry.recommended && { recommended: true }), selected: entry.id === selectedId }));
    }
    return [...runnable.values()].map(({ entry, variant, label, brief }) => ({
      id: entry.id,
      label,
      brief,
      bytes: variant.bytes,
      cached: cached.get(entry.id) ?? false,
      recommended: entry.recommended === true,
      selected: entry.id === selectedId,
    }));
  }

  function setPhase(next: Phase) {
    phase = next;
    statusSnapshot = snapshotStatus();
    modelsSnapshot = snapshotModels();
    for (const listener of [...listeners]) listener();
  }
  modelsSnapshot = snapshotModels();

  async function getEngine(): Promise<EngineHost> {
    if (!engine) engine = typeof options.engine === "function" ? await options.engine() : (options.engine ?? (await loadDefaultEngine()));
    return engine;
  }

  /** What the selected model needs, once the probe is done and nothing is in flight. */
  function settle() {
    const resolved = selected();
    if (!resolved) return setPhase({ state: "unavailable", reason: UNAVAILABLE });
    if (loadedKey === resolved.key) return setPhase({ state: "ready" });
    if (autoLoad && cached.get(resolved.entry.id)) {
      // Straight to loading: a cached model never shows a download card.
      setPhase({ state: "loading", progress: 0 });
      void prepare().catch(() => {});
      return;
    }
    setPhase({ state: "needs-download" });
  }

  function init(): Promise<void> {
    initializing ??= (async () => {
      try {
        const host = await getEngine();
        const probed = await host.probe();
        threads = options.threads ?? defaultWasmThreads(probed);
        const found = new Map<string, ResolvedVariant>();
        for (const entry of entries) {
          const resolved = resolveVariant(entry, probed, { ...(options.engines && { engines: options.engines }) });
          if (resolved) found.set(entry.id, resolved);
        }
        await Promise.all(
          [...found.values()].map(async (resolved) => {
            const status: CacheStatus = await host.cacheStatus(modelSource(resolved)).catch(() => ({ cached: false }));
            cached.set(resolved.entry.id, status.cached);
            if (status.removed) removedNotes.set(resolved.entry.id, describeEngineError({ code: "not_cached", reason: status.removed, message: "" }, resolved.label));
          }),
        );
        capabilities = probed;
        runnable = found;
        if (selectedId === undefined || !found.has(selectedId)) {
          selectedId = [...found.values()].find(({ entry }) => entry.recommended)?.entry.id ?? [...found.keys()][0];
        }
        settle();
      } catch {
        // The worker could not start or died while probing (a bad deploy, a crash, memory):
        // an error with Try again, which probes again in a new worker, never a dead end.
        initializing = undefined;
        setPhase({ state: "error", error: START_FAILED, code: "worker_died" });
      }
    })();
    return initializing;
  }

  async function download(host: EngineHost, resolved: ResolvedVariant, signal: AbortSignal) {
    const id = crypto.randomUUID();
    const onAbort = () => void host.cancel(id).catch(() => {});
    signal.addEventListener("abort", onAbort, { once: true });
    // Ask the browser to keep the model under storage pressure; only the main thread can (workers lack persist()).
    if (typeof navigator !== "undefined") void navigator.storage?.persist?.().catch(() => false);
    let progress = 0;
    removedNotes.delete(resolved.entry.id);
    setPhase({ state: "downloading", progress });
    try {
      await host.download(id, modelSource(resolved), ({ loadedBytes, totalBytes }) => {
        const next = totalBytes > 0 ? Math.min(1, Math.max(progress, loadedBytes / totalBytes)) : progress;
        if (next === progress || signal.aborted) return;
        progress = next;
        setPhase({ state: "downloading", progress });
      });
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    if (signal.aborted) throw abortError();
    cached.set(resolved.entry.id, true);
  }

  async function downloadAndLoad(resolved: ResolvedVariant, signal: AbortSignal): Promise<void> {
    const host = await getEngine();
    try {
      if (!cached.get(resolved.entry.id)) await download(host, resolved, signal);
      if (phase.state !== "loading" || phase.progress !== 0) setPhase({ state: "loading", progress: 0 });
      await host.load(modelSource(resolved), ({ progress }) => {
        if (phase.state === "loading" && progress > phase.progress) setPhase({ state: "loading", progress: Math.min(1, progress) });
      });
      loadedKey = resolved.key;
      setPhase({ state: "ready" });
    } catch (error) {
      if (signal.aborted) {
        // Nothing half-committed: the engine writes the manifest last, so the model is still not cached.
        setPhase({ state: "needs-download" });
        throw abortError();
      }
      if (engineErrorCode(error) === "not_cached") {
        // The saved copy is gone (evicted, or damaged and removed by the engine): back to the download card, saying why.
        cached.set(resolved.entry.id, false);
        removedNotes.set(resolved.entry.id, describeEngineError(error, resolved.label));
        setPhase({ state: "needs-download" });
        throw withDescribedMessage(error, resolved.label);
      }
      const { error: sentence, code } = engineErrorPart(error, resolved.label);
      setPhase({ state: "error", error: sentence, ...(code && { code }) });
      throw withDescribedMessage(error, resolved.label);
    }
  }

  async function prepare(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortError();
    await init();
    if (!capabilities) throw new Error(START_FAILED);
    const resolved = selected();
    if (!resolved) throw new Error(phase.state === "unavailable" ? phase.reason : UNAVAILABLE);
    if (loadedKey === resolved.key && phase.state === "ready") return;
    if (!preparation || preparation.key !== resolved.key) {
      const controller = new AbortController();
      const current: Preparation = { key: resolved.key, controller, callers: 0, promise: Promise.resolve() };
      current.promise = downloadAndLoad(resolved, controller.signal).finally(() => {
        if (preparation === current) preparation = undefined;
      });
      current.promise.catch(() => {});
      preparation = current;
    }
    const shared = preparation;
    if (!signal) return shared.promise;
    shared.callers++;
    const leave = () => {
      shared.callers--;
      // Only when every caller has given up: another one may still want the model.
      if (shared.callers === 0) shared.controller.abort();
    };
    signal.addEventListener("abort", leave, { once: true });
    try {
      await abortable(shared.promise, signal);
    } finally {
      if (!signal.aborted) {
        signal.removeEventListener("abort", leave);
        shared.callers--;
      }
    }
  }

  async function selectModel(id: string): Promise<void> {
    if (runs > 0) throw new Error("Wait for the reply to finish, or stop it, before switching models.");
    if (preparation || phase.state === "downloading") throw new Error("Wait for the download to finish, or cancel it, before switching models.");
    await init();
    if (!runnable.has(id)) {
      const known = entries.some((entry) => entry.id === id);
      throw new Error(known ? `The model "${id}" cannot run in this browser.` : `There is no model "${id}".`);
    }
    if (runs > 0 || preparation) throw new Error("Wait for the reply or the download to finish before switching models.");
    if (id === selectedId) return;
    selectedId = id;
    settle();
  }

  async function deleteModel(id: string): Promise<void> {
    if (runs > 0) throw new Error("Wait for the reply to finish, or stop it, before deleting a model.");
    if (preparation || phase.state === "downloading") throw new Error("Wait for the download to finish, or cancel it, before deleting a model.");
    await init();
    const resolved = runnable.get(id);
    if (!resolved) throw new Error(`There is no model "${id}" on this device.`);
    const host = await getEngine();
    await host.deleteModel(modelSource(resolved));
    cached.set(id, false);
    if (loadedKey === resolved.key) loadedKey = undefined;
    if (id === selectedId) setPhase({ state: "needs-download" });
    else setPhase(phase);
  }

  async function* run(req: Parameters<AgentAdapter["run"]>[0]): AsyncGenerator<AgentStreamPart> {
    runs++;
    try {
      await init();
      const resolved = selected();
      if (!resolved) {
        yield !capabilities
          ? { type: "error", error: START_FAILED, code: "worker_died" }
          : { type: "error", error: phase.state === "unavailable" ? phase.reason : UNAVAILABLE, code: "unsupported_device" };
        return;
      }
      if (loadedKey !== resolved.key || phase.state !== "ready") {
        if (!cached.get(resolved.entry.id) && preparation?.key !== resolved.key) {
          yield { type: "error", error: `Download ${resolved.label} first: it runs on this device.`, code: "not_cached" };
          return;
        }
        try {
          await prepare(req.signal);
        } catch (error) {
          if (req.signal.aborted) yield { type: "finish", reason: "aborted" };
          else yield engineErrorPart(error, resolved.label);
          return;
        }
      }
      const conversationId = `local:${req.messages[0]?.id ?? crypto.randomUUID()}`;
      yield* runLocalSteps(req, {
        engine: await getEngine(),
        model: modelSource(resolved),
        maxSteps,
        conversationId,
        ...(options.generation && { generation: options.generation }),
      });
    } finally {
      runs--;
    }
  }

  return {
    id: options.id ?? "local",
    label: options.label ?? "On this device",
    status() {
      void init();
      return statusSnapshot;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    prepare,
    models() {
      void init();
      return modelsSnapshot;
    },
    selectModel,
    deleteModel,
    run,
  };
}
