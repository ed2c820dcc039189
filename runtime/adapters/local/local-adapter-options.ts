import type { CatalogEntry } from "../../../models/catalog-schema.js";
import { refuseUnknownOptions } from "../refuse-unknown-options.js";
import type { TestModelEntriesOptions } from "../../../models/catalog-test-models.js";
import type { ResolveVariantOptions } from "../../../models/resolve-variant.js";
import type { EngineHost, GenerateRequest } from "../../../worker/protocol.js";

/** Which models the adapter offers, and which one it starts on (`createLocalAdapter({ catalog })`). */
export interface LocalCatalogOptions {
  /**
   * The models to offer. Default: the Qwen3 catalog (`QWEN3_CATALOG`).
   * `QWEN_CATALOG` offers Qwen3.5 (WebGPU only) before Qwen3; a device's
   * default is then the first recommended entry that runs on it: Qwen3.5
   * 0.8B on WebGPU, Qwen3 0.6B on the CPU. The project's test models come
   * from `@webmcp-agents/chat/testing` (`testModelEntries`).
   */
  models?: readonly CatalogEntry[];
  /**
   * The model selected at first, until the person picks one (see
   * `rememberModel`). Default: the first recommended one this device can
   * run, else the first it can.
   */
  model?: string;
  /**
   * The localStorage key under which the person's model choice is
   * remembered across reloads and visits, or `false` to remember nothing.
   * Default `"web-agents:model:<id>"` (`modelChoiceKey(id)`, one per adapter
   * `id`). The choice is saved when the person picks a model
   * (`selectModel`) or starts its download; on the next visit it is selected
   * instead of `model` when it still runs on this device, so a model already
   * downloaded loads with the network off.
   */
  rememberModel?: string | false;
  /** Engine preference among variants of the same rank. Default: each catalog entry's own `engines`, else `["transformers", "web-llm"]`. */
  engines?: ResolveVariantOptions["engines"];
  /** Load a model that is already on this device as soon as it is selected (no network). Default true. */
  autoLoad?: boolean;
}

/** Where the engine runs and where its files come from (`createLocalAdapter({ worker })`). */
export interface LocalWorkerOptions {
  /** The engine. Default: the Web Worker client, loaded lazily on the first `status()`. Tests pass a double. */
  host?: EngineHost | (() => Promise<EngineHost>);
  /** Where model files come from: `${baseUrl}/${repo}/resolve/${revision}/${path}` (each variant names its revision; `main` where none). Default `"https://huggingface.co"`. */
  baseUrl?: string;
  /**
   * ONNX Runtime's WASM threads for the transformers.js engine (the CPU path,
   * and the CPU ops under WebGPU). Default: `min(4, cores - 1)`, at least 1,
   * where the page is cross-origin isolated, else 1. More than one needs the
   * page cross-origin isolated (COOP `same-origin` + COEP `require-corp` or
   * `credentialless`) and a dedicated worker (see `shared`); elsewhere the
   * engine runs one, whatever this says.
   * Fixed for the adapter's worker by its first load.
   */
  threads?: number;
  /**
   * Run the default engine in a SharedWorker: every tab, page and local
   * adapter of the origin that sets it uses one loaded model, and a tab's
   * second adapter or next tab is `ready` without loading it again.
   * Generations from several tabs run in the order they came, each
   * cancellable by its own tab only; a tab that closes has its own cancelled.
   * Feature-detected: where the browser has no SharedWorker, a dedicated
   * worker runs as when this is off. Default: on, unless the page is
   * cross-origin isolated: Chromium gives a SharedWorker no cross-origin
   * isolation of its own, so there the model would run on one WASM thread
   * (`threads` is then 1) where a dedicated worker runs several. Ignored
   * with `host`.
   */
  shared?: boolean;
}

/** How each reply is generated (`createLocalAdapter({ generation })`). */
export interface LocalGenerationOptions extends Pick<GenerateRequest, "maxNewTokens" | "temperature" | "enableThinking"> {
  /**
   * Constrain each tool call while the transformers.js engine decodes it: once
   * the model opens a call, every token is masked so that the call can only
   * be the format's syntax, an offered tool's name and arguments valid against
   * its JSON Schema; the closing summary after `maxSteps` cannot call at all.
   * A schema it cannot express holds that tool to JSON syntax (one console
   * warning). Default true; `false` leaves the model's calls as written (a
   * malformed one still comes back to it as `invalid_input`).
   */
  constrainToolCalls?: boolean;
  /**
   * Count the tool calls the constraint repaired (its mask refused the token
   * the model found likeliest), reported in each step's `usage.repairedCalls`.
   * It costs one pass over the logits per token inside a call (about 0.2 ms
   * on this project's CPU machine), so it is off unless asked;
   * `evaluateAgent` turns it on. Default false.
   */
  reportRepairs?: boolean;
}

/** What `createLocalAdapter` takes, by concern. Every field is optional. */
export interface LocalAdapterOptions {
  /** Default `"local"`. The switcher, the remembered choice and the conversation's storage know the adapter by it. */
  id?: string;
  /** Default `"On this device"`. */
  label?: string;
  /** Tool steps per user message when the agent sets no `maxSteps`. Default `LIMITS.maxSteps` (8). */
  maxSteps?: number;
  catalog?: LocalCatalogOptions;
  worker?: LocalWorkerOptions;
  generation?: LocalGenerationOptions;
}

/** The options as the adapter reads them: every group present. */
export interface ReadLocalAdapterOptions {
  id?: string;
  label?: string;
  maxSteps?: number;
  catalog: LocalCatalogOptions;
  worker: LocalWorkerOptions;
  generation: LocalGenerationOptions;
}

// The names from before the options were grouped, and where each went: named in the error a plain-JavaScript caller gets for one.
const MOVED: Record<string, string> = { models: "catalog.models", model: "catalog.model", rememberModel: "catalog.rememberModel", engines: "catalog.engines", autoLoad: "catalog.autoLoad", engine: "worker.host", baseUrl: "worker.baseUrl", threads: "worker.threads", constrainToolCalls: "generation.constrainToolCalls", testModels: "catalog.models with testModelEntries({ baseUrl }) from @webmcp-agents/chat/testing" };
const KNOWN = new Set(["id", "label", "maxSteps", "catalog", "worker", "generation"]);

/** `options` with every group present; a name the adapter does not take is a TypeError that says what to pass instead (never silently dropped). */
export function readLocalAdapterOptions(options: LocalAdapterOptions): ReadLocalAdapterOptions {
  refuseUnknownOptions("createLocalAdapter", options, KNOWN, MOVED, "docs/api/create-local-adapter.md");
  return { ...options, catalog: { ...options.catalog }, worker: { ...options.worker }, generation: { ...options.generation } };
}

/**
 * The entries the adapter offers: `catalog.models`, else the Qwen3 catalog.
 * The module loads here, when the adapter first probes, so that a page with
 * the chat does not ship the catalog's data in its first render.
 */
export async function loadCatalogEntries({ catalog }: ReadLocalAdapterOptions): Promise<readonly CatalogEntry[]> {
  return catalog.models ?? (await import("../../../models/catalog.js")).QWEN3_CATALOG;
}
