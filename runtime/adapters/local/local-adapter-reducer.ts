import { recommendedEntryId } from "../../../models/recommended-entry-id.js";
import type { ResolvedVariant } from "../../../models/resolve-variant.js";
import { policyBlockMessage } from "../../../worker/engine-error-messages.js";
import type { DeviceCapabilities } from "../../../worker/protocol.js";
import type { AdapterStatus, ModelChoice } from "../../session/agent-adapter.js";
import type { AgentErrorCode } from "../../session/agent-stream-part.js";
import type { CatalogEntry } from "../../../models/catalog-schema.js";

/** Where the selected model is, the one status union the adapter keeps (`probing` reads as `loading`). */
export type LocalPhase =
  | { state: "probing" }
  | { state: "unavailable"; reason: string }
  | { state: "needs-download" }
  | { state: "downloading"; progress: number }
  | { state: "loading"; progress: number; stage?: "starting" }
  | { state: "ready" }
  | { state: "error"; error: string; code?: AgentErrorCode };

/** Everything `createLocalAdapter` knows, as plain data. */
export interface LocalAdapterState {
  phase: LocalPhase;
  /** The probe's answer; undefined until it has run (or when it failed). */
  capabilities?: DeviceCapabilities;
  /** WASM threads for every model source, set by the probe. */
  threads: number;
  /** Entries this device can run, by id, in catalog order. */
  runnable: ReadonlyMap<string, ResolvedVariant>;
  /** Whether each runnable entry is on this device. */
  cached: ReadonlyMap<string, boolean>;
  /** Entries whose saved copy was found broken and removed: the sentence that says so, until the next download starts. */
  removedNotes: ReadonlyMap<string, string>;
  selectedId: string | undefined;
  /** The source key of the model loaded in the engine. */
  loadedKey: string | undefined;
}

/** What happens to the adapter, as the reducer sees it. */
export type LocalAdapterEvent =
  | {
      type: "probed";
      capabilities: DeviceCapabilities;
      threads: number;
      runnable: ReadonlyMap<string, ResolvedVariant>;
      cached: ReadonlyMap<string, boolean>;
      removedNotes: ReadonlyMap<string, string>;
      /**
       * The ids to select, in order, where they run here (the person's
       * remembered choice, then the site's `model` option); else the
       * device's recommended one. Default: none.
       */
      preferred?: readonly string[];
    }
  | { type: "probe-failed"; error: string }
  /** The page's Content-Security-Policy refused the engine worker: nothing runs until the site allows it (`reason` says what). */
  | { type: "probe-blocked"; reason: string }
  | { type: "selected"; id: string }
  | { type: "download-started"; id: string }
  | { type: "download-progress"; progress: number }
  /** The model `id` is on this device (downloaded, or found cached) and starts loading. */
  | { type: "load-started"; id: string }
  /** `stage: "starting"`: the files are read; the engine creates its session, with no progress of its own. */
  | { type: "load-progress"; progress: number; stage?: "starting" }
  | { type: "loaded"; key: string }
  | { type: "cancelled" }
  /** The saved copy is gone (evicted, or damaged and removed): back to the download card, saying why. */
  | { type: "copy-removed"; id: string; note: string }
  | { type: "failed"; error: string; code?: AgentErrorCode }
  | { type: "deleted"; id: string; key: string }
  /** The engine's worker stopped on its own: what it had loaded is gone, and a ready model loads again. */
  | { type: "unloaded" };

/** The state before the probe. */
export function initialLocalAdapterState(selectedId: string | undefined): LocalAdapterState {
  return { phase: { state: "probing" }, threads: 1, runnable: new Map(), cached: new Map(), removedNotes: new Map(), selectedId, loadedKey: undefined };
}

const UNAVAILABLE = "No on-device model can run in this browser.";

/** The selected entry's variant on this device, if it runs here. */
export function selectedVariant(state: LocalAdapterState): ResolvedVariant | undefined {
  return state.selectedId === undefined ? undefined : state.runnable.get(state.selectedId);
}

/**
 * Where a settled adapter stands for its selected model: ready when loaded,
 * loading when it is on this device and loads by itself (`autoLoad`: the
 * caller then starts the load), else the download card.
 */
function settled(state: LocalAdapterState, autoLoad: boolean): LocalPhase {
  // The site's Content-Security-Policy refuses WebAssembly: no model can run until the site allows it.
  const blocked = state.capabilities?.blockedByPolicy;
  if (blocked) return { state: "unavailable", reason: policyBlockMessage(blocked) };
  const resolved = selectedVariant(state);
  if (!resolved) return { state: "unavailable", reason: UNAVAILABLE };
  if (state.loadedKey === resolved.key) return { state: "ready" };
  if (autoLoad && state.cached.get(resolved.entry.id)) return { state: "loading", progress: 0 };
  return { state: "needs-download" };
}

/**
 * The device's default among what runs here (`recommendedEntryId`), except
 * that on a software WebGPU adapter an entry that runs on the processor is
 * preferred over one that would run on the emulated GPU (`QWEN_CATALOG`:
 * Qwen3 0.6B on the CPU, not Qwen3.5 0.8B on SwiftShader).
 */
function recommendedRunnable(runnable: ReadonlyMap<string, ResolvedVariant>, capabilities: DeviceCapabilities): string | undefined {
  const all = [...runnable.values()];
  const fast = capabilities.fallbackAdapter ? all.filter(({ variant }) => variant.device !== "webgpu") : all;
  return recommendedEntryId(fast.map(({ entry }) => entry)) ?? recommendedEntryId(all.map(({ entry }) => entry));
}

const withEntry = <V>(map: ReadonlyMap<string, V>, id: string, value: V | undefined): ReadonlyMap<string, V> => {
  const next = new Map(map);
  if (value === undefined) next.delete(id);
  else next.set(id, value);
  return next;
};

/**
 * The local adapter's state machine, pure: every change of what the adapter
 * knows goes through here, and {@link localAdapterStatus} derives the status
 * from the result in one place. `autoLoad` is the adapter's option.
 */
export function localAdapterReducer(state: LocalAdapterState, event: LocalAdapterEvent, autoLoad: boolean): LocalAdapterState {
  switch (event.type) {
    case "probed": {
      const { capabilities, threads, runnable, cached, removedNotes, preferred = [] } = event;
      const selectedId = preferred.find((id) => runnable.has(id)) ?? recommendedRunnable(runnable, capabilities) ?? [...runnable.keys()][0];
      const next = { ...state, capabilities, threads, runnable, cached, removedNotes, selectedId };
      return { ...next, phase: settled(next, autoLoad) };
    }
    case "unloaded": {
      if (state.loadedKey === undefined) return state;
      const next = { ...state, loadedKey: undefined };
      return state.phase.state === "ready" ? { ...next, phase: settled(next, autoLoad) } : next;
    }
    case "probe-failed":
      return { ...state, phase: { state: "error", error: event.error, code: "worker_died" } };
    case "probe-blocked":
      return { ...state, phase: { state: "unavailable", reason: event.reason } };
    case "selected": {
      if (event.id === state.selectedId) return state;
      const next = { ...state, selectedId: event.id };
      return { ...next, phase: settled(next, autoLoad) };
    }
    case "download-started":
      return { ...state, removedNotes: withEntry(state.removedNotes, event.id, undefined), phase: { state: "downloading", progress: 0 } };
    case "download-progress":
      return state.phase.state === "downloading" && event.progress > state.phase.progress ? { ...state, phase: { state: "downloading", progress: Math.min(1, event.progress) } } : state;
    case "load-started": {
      const cached = state.cached.get(event.id) ? state.cached : withEntry(state.cached, event.id, true);
      const phase: LocalPhase = state.phase.state === "loading" && state.phase.progress === 0 ? state.phase : { state: "loading", progress: 0 };
      return cached === state.cached && phase === state.phase ? state : { ...state, cached, phase };
    }
    case "load-progress": {
      if (state.phase.state !== "loading") return state;
      const starting = event.stage === "starting" || state.phase.stage === "starting";
      if (event.progress <= state.phase.progress && (!starting || state.phase.stage === "starting")) return state;
      const progress = Math.min(1, Math.max(event.progress, state.phase.progress));
      return { ...state, phase: starting ? { state: "loading", progress, stage: "starting" } : { state: "loading", progress } };
    }
    case "loaded":
      return { ...state, loadedKey: event.key, phase: { state: "ready" } };
    case "cancelled":
      // Nothing half-committed: the engine writes the manifest last, so the model is still not cached.
      return { ...state, phase: { state: "needs-download" } };
    case "copy-removed":
      return { ...state, cached: withEntry(state.cached, event.id, false), removedNotes: withEntry(state.removedNotes, event.id, event.note), phase: { state: "needs-download" } };
    case "failed":
      return { ...state, phase: { state: "error", error: event.error, ...(event.code && { code: event.code }) } };
    case "deleted": {
      const next = { ...state, cached: withEntry(state.cached, event.id, false), loadedKey: state.loadedKey === event.key ? undefined : state.loadedKey };
      return event.id === state.selectedId ? { ...next, phase: { state: "needs-download" } } : next;
    }
  }
}

/** The adapter's status, derived from its state in one place. */
export function localAdapterStatus(state: LocalAdapterState): AdapterStatus {
  const { phase } = state;
  switch (phase.state) {
    case "probing":
      return { state: "loading" };
    case "needs-download": {
      const resolved = selectedVariant(state);
      const note = [resolved && state.removedNotes.get(resolved.entry.id), resolved?.note].filter(Boolean).join(" ");
      return { state: "needs-download", ...(resolved && { bytes: resolved.variant.bytes }), ...(note && { note }) };
    }
    default:
      return phase;
  }
}

/**
 * The picker's models, derived from the state: the catalog before the probe,
 * then what runs here. One is `recommended`: the first recommended entry of
 * the catalog, then of what runs here (`recommendedEntryId`).
 */
export function localAdapterModels(state: LocalAdapterState, entries: readonly CatalogEntry[]): readonly ModelChoice[] {
  if (!state.capabilities) {
    const recommended = recommendedEntryId(entries);
    return entries.map((entry) => ({ id: entry.id, label: entry.label, brief: entry.brief, ...(entry.id === recommended && { recommended: true }), selected: entry.id === state.selectedId }));
  }
  const recommended = recommendedRunnable(state.runnable, state.capabilities);
  return [...state.runnable.values()].map(({ entry, variant, label, brief }) => ({
    id: entry.id,
    label,
    brief,
    bytes: variant.bytes,
    cached: state.cached.get(entry.id) ?? false,
    recommended: entry.id === recommended,
    selected: entry.id === state.selectedId,
  }));
}
