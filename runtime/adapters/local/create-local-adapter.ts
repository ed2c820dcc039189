import type { CatalogEntry } from "../../../models/catalog-schema.js";
import { recommendedEntryId } from "../../../models/recommended-entry-id.js";
import type { ResolvedVariant, toModelSource } from "../../../models/resolve-variant.js";
import type { CacheStatus, EngineHost, ModelSource } from "../../../worker/protocol.js";
import { defaultWasmThreads } from "../../../worker/wasm-threads.js";
import type { AgentAdapter } from "../../session/agent-adapter.js";
import { createChoiceStorage } from "../../session/choice-storage.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { WebAgentsError } from "../../errors/web-agents-error.js";
import { abortError } from "../abortable.js";
import { SharedPreparation } from "../shared-preparation.js";
import { describeEngineError, engineErrorCode, engineErrorPart, withDescribedMessage } from "./describe-engine-error.js";
import { loadDefaultEngine } from "./load-default-engine.js";
import { loadCatalogEntries, readLocalAdapterOptions, type LocalAdapterOptions } from "./local-adapter-options.js";
import {
  initialLocalAdapterState,
  localAdapterModels,
  localAdapterReducer,
  localAdapterStatus,
  selectedVariant,
  type LocalAdapterEvent,
} from "./local-adapter-reducer.js";

/** The local adapter: `AgentAdapter` with every optional member present, and `deleteModel`. */
export type LocalAdapter = Required<AgentAdapter> & {
  /**
   * Removes a downloaded model's files and manifest from this device. The
   * selected model goes back to `needs-download`. Rejects while a reply or a
   * download is in progress, and for an id `models()` does not list.
   */
  deleteModel(id: string): Promise<void>;
};

const UNAVAILABLE = "No on-device model can run in this browser.";

/** The localStorage key for a local adapter's remembered model choice: `"web-agents:model:<id>"`. */
export const modelChoiceKey = (adapterId: string) => `web-agents:model:${adapterId}`;
const STILL_STARTING = "The model is still starting on this device. Switch models once it is ready.";
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
export function createLocalAdapter(given: LocalAdapterOptions = {}): LocalAdapter {
  const read = readLocalAdapterOptions(given);
  const { catalog, worker, generation, ...options } = read;
  // The default catalog comes with the first probe (loadCatalogEntries): none listed until then.
  let entries: readonly CatalogEntry[] = catalog.models ?? [];
  const maxSteps = options.maxSteps;
  const autoLoad = catalog.autoLoad ?? true;
  const listeners = new Set<() => void>();
  const adapterId = options.id ?? "local";
  const choice = createChoiceStorage(catalog.rememberModel === false ? false : (catalog.rememberModel ?? modelChoiceKey(adapterId)));
  const remembered = choice.load();

  // What the adapter knows lives in one state, changed only by localAdapterReducer; the status
  // and the models are derived from it. The closure keeps only the effects' handles: the engine,
  // the probe and the preparation in flight, and how many runs are going.
  // The person's remembered choice first, then the site's; the probe takes the first that runs here.
  const preferredIn = () => [remembered, catalog.model].filter((id): id is string => id !== undefined && entries.some((entry) => entry.id === id));
  let preferred = preferredIn();
  let state = initialLocalAdapterState(preferred[0] ?? recommendedEntryId(entries) ?? entries[0]?.id);
  let statusSnapshot = localAdapterStatus(state);
  let modelsSnapshot = localAdapterModels(state, entries);
  let engine: EngineHost | undefined;
  let initializing: Promise<void> | undefined;
  const preparation = new SharedPreparation();
  let runs = 0;

  function dispatch(event: LocalAdapterEvent) {
    const next = localAdapterReducer(state, event, autoLoad);
    if (next === state) return;
    state = next;
    // Listeners hear a change of what they can read, and the snapshots keep their identity otherwise.
    const status = localAdapterStatus(state);
    const models = localAdapterModels(state, entries);
    const changed = JSON.stringify(status) !== JSON.stringify(statusSnapshot) || JSON.stringify(models) !== JSON.stringify(modelsSnapshot);
    if (changed) {
      statusSnapshot = status;
      modelsSnapshot = models;
      for (const listener of [...listeners]) listener();
    }
    // A cached model loads by itself once selected (autoLoad): the reducer said `loading`, the load starts here.
    if ((event.type === "probed" || event.type === "selected" || event.type === "unloaded") && state.phase.state === "loading" && !preparation.running) void prepare().catch(() => {});
  }

  const selected = () => selectedVariant(state);
  /** What the engine gets for a variant: its files and where they come from, and the threads. */
  // Set by init(), which loads the variant rules with the catalog (not in the first render): a variant exists only after it.
  let toSource!: typeof toModelSource;
  const modelSource = (resolved: ResolvedVariant): ModelSource => ({ ...toSource(resolved, worker.baseUrl), threads: state.threads });

  async function getEngine(): Promise<EngineHost> {
    if (!engine) {
      const host = typeof worker.host === "function" ? await worker.host() : (worker.host ?? (await loadDefaultEngine({ shared: worker.shared })));
      if (!engine) {
        // Its worker stopped on its own: a ready model is gone, and loads again (autoLoad) or waits for prepare().
        host.onStopped?.(() => dispatch({ type: "unloaded" }));
        engine = host;
      }
    }
    return engine;
  }

  function init(): Promise<void> {
    initializing ??= (async () => {
      try {
        // Side by side, not one after another: each is a chunk the page fetches (the engine's
        // client, then its worker), and a page that comes back to a loaded model waits on them all.
        const [loaded, variants, host] = await Promise.all([loadCatalogEntries(read), import("../../../models/resolve-variant.js"), getEngine()]);
        const { resolveVariant } = variants;
        entries = loaded;
        toSource = variants.toModelSource;
        preferred = preferredIn();
        const capabilities = await host.probe();
        const threads = worker.threads ?? defaultWasmThreads(capabilities);
        const runnable = new Map<string, ResolvedVariant>();
        for (const entry of entries) {
          const resolved = resolveVariant(entry, capabilities, { ...(catalog.engines && { engines: catalog.engines }) });
          if (resolved) runnable.set(entry.id, resolved);
        }
        const cached = new Map<string, boolean>();
        const removedNotes = new Map<string, string>();
        await Promise.all(
          [...runnable.values()].map(async (resolved) => {
            const status: CacheStatus = await host.cacheStatus({ ...toSource(resolved, worker.baseUrl), threads }).catch(() => ({ cached: false }));
            cached.set(resolved.entry.id, status.cached);
            const reason = status.removed ?? (status.outdated ? "outdated" : undefined);
            if (reason) removedNotes.set(resolved.entry.id, describeEngineError({ code: "not_cached", reason, message: "" }, resolved.label));
          }),
        );
        dispatch({ type: "probed", capabilities, threads, runnable, cached, removedNotes, preferred });
      } catch (error) {
        initializing = undefined;
        // The page's policy refused the worker: say what the site must allow; Try again cannot help.
        if ((error as { reason?: unknown } | null)?.reason === "blocked_by_policy") return dispatch({ type: "probe-blocked", reason: describeEngineError(error) });
        // The worker could not start or died while probing (a bad deploy, a crash, memory):
        // an error with Try again, which probes again in a new worker, never a dead end.
        dispatch({ type: "probe-failed", error: START_FAILED });
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
    dispatch({ type: "download-started", id: resolved.entry.id });
    // Starting a download is the person's choice too, of the model the adapter offered.
    choice.save(resolved.entry.id);
    try {
      await host.download(id, modelSource(resolved), ({ loadedBytes, totalBytes }) => {
        if (totalBytes > 0 && !signal.aborted) dispatch({ type: "download-progress", progress: loadedBytes / totalBytes });
      });
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    if (signal.aborted) throw abortError();
  }

  async function downloadAndLoad(resolved: ResolvedVariant, signal: AbortSignal): Promise<void> {
    const host = await getEngine();
    try {
      if (!state.cached.get(resolved.entry.id)) await download(host, resolved, signal);
      dispatch({ type: "load-started", id: resolved.entry.id });
      // The tool loop's code arrives with the model, not on the first message, which may be sent
      // with the network gone (an offline assistant); a failure here is retried by the first run.
      const steps = import("./run-local-steps.js").catch(() => {});
      await host.load(modelSource(resolved), ({ progress, stage }) => dispatch({ type: "load-progress", progress, ...(stage && { stage }) }));
      await steps;
      dispatch({ type: "loaded", key: resolved.key });
    } catch (error) {
      if (signal.aborted) {
        dispatch({ type: "cancelled" });
        throw abortError();
      }
      if (engineErrorCode(error) === "not_cached") {
        dispatch({ type: "copy-removed", id: resolved.entry.id, note: describeEngineError(error, resolved.label) });
        throw withDescribedMessage(error, resolved.label);
      }
      const { error: sentence, code } = engineErrorPart(error, resolved.label);
      dispatch({ type: "failed", error: sentence, ...(code && { code }) });
      throw withDescribedMessage(error, resolved.label);
    }
  }

  async function prepare(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortError();
    await init();
    if (!state.capabilities) throw new WebAgentsError("worker_died", START_FAILED);
    const resolved = selected();
    if (!resolved) throw new WebAgentsError("unsupported_device", state.phase.state === "unavailable" ? state.phase.reason : UNAVAILABLE);
    if (state.loadedKey === resolved.key && state.phase.state === "ready") return;
    await preparation.join(resolved.key, (abort) => downloadAndLoad(resolved, abort), signal);
  }

  // A function, read afresh after each await (a narrowed `state.phase` would not be).
  const starting = () => state.phase.state === "loading";

  async function selectModel(id: string): Promise<void> {
    if (runs > 0) throw new WebAgentsError("model_busy", "Wait for the reply to finish, or stop it, before switching models.");
    // A model already on this device starting (autoLoad, 5-18 s on a return visit) cannot be cancelled: say so, not "download".
    if (starting()) throw new WebAgentsError("model_busy", STILL_STARTING);
    if (preparation.running || state.phase.state === "downloading") throw new WebAgentsError("model_busy", "Wait for the download to finish, or cancel it, before switching models.");
    await init();
    if (!state.runnable.has(id)) {
      const known = entries.some((entry) => entry.id === id);
      throw known ? new WebAgentsError("unsupported_device", `The model "${id}" cannot run in this browser.`) : new WebAgentsError("unknown_model", `There is no model "${id}".`);
    }
    if (starting()) throw new WebAgentsError("model_busy", STILL_STARTING);
    if (runs > 0 || preparation.running) throw new WebAgentsError("model_busy", "Wait for the reply or the download to finish before switching models.");
    dispatch({ type: "selected", id });
    choice.save(id);
  }

  async function deleteModel(id: string): Promise<void> {
    if (runs > 0) throw new WebAgentsError("model_busy", "Wait for the reply to finish, or stop it, before deleting a model.");
    if (preparation.running || state.phase.state === "downloading") throw new WebAgentsError("model_busy", "Wait for the download to finish, or cancel it, before deleting a model.");
    await init();
    const resolved = state.runnable.get(id);
    if (!resolved) throw new WebAgentsError("unknown_model", `There is no model "${id}" on this device.`);
    const host = await getEngine();
    await host.deleteModel(modelSource(resolved));
    dispatch({ type: "deleted", id, key: resolved.key });
  }

  async function* run(req: Parameters<AgentAdapter["run"]>[0]): AsyncGenerator<AgentStreamPart> {
    runs++;
    try {
      await init();
      const resolved = selected();
      if (!resolved) {
        yield !state.capabilities
          ? { type: "error", error: START_FAILED, code: "worker_died" }
          : { type: "error", error: state.phase.state === "unavailable" ? state.phase.reason : UNAVAILABLE, code: "unsupported_device" };
        return;
      }
      if (state.loadedKey !== resolved.key || state.phase.state !== "ready") {
        if (!state.cached.get(resolved.entry.id) && preparation.key !== resolved.key) {
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
      // The tool loop loads with the first reply, not with the page (the first render's budget).
      const { runLocalSteps } = await import("./run-local-steps.js");
      yield* runLocalSteps(req, {
        engine: await getEngine(),
        model: modelSource(resolved),
        ...(maxSteps !== undefined && { maxSteps }),
        conversationId,
        generation: { ...generation, constrainToolCalls: generation.constrainToolCalls ?? true },
      });
    } finally {
      runs--;
    }
  }

  return {
    id: adapterId,
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
