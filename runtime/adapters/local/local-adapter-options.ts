import type { CatalogEntry } from "../../../models/catalog-schema.js";
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
   * `credentialless`); elsewhere the engine runs one, whatever this says.
   * Fixed for the adapter's worker by its first load.
   */
  threads?: number;
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

/** The option names before they were grouped: they still work, each with a one-line console warning, and go in the next release. */
export interface DeprecatedLocalAdapterOptions {
  /** @deprecated Use `catalog: { models }`. */
  models?: readonly CatalogEntry[];
  /** @deprecated Use `catalog: { model }`. */
  model?: string;
  /** @deprecated Use `catalog: { rememberModel }`. */
  rememberModel?: string | false;
  /** @deprecated Use `catalog: { engines }`. */
  engines?: ResolveVariantOptions["engines"];
  /** @deprecated Use `catalog: { autoLoad }`. */
  autoLoad?: boolean;
  /** @deprecated Use `worker: { host }`. */
  engine?: EngineHost | (() => Promise<EngineHost>);
  /** @deprecated Use `worker: { baseUrl }`. */
  baseUrl?: string;
  /** @deprecated Use `worker: { threads }`. */
  threads?: number;
  /** @deprecated Use `generation: { constrainToolCalls }`. */
  constrainToolCalls?: boolean;
  /** @deprecated Use `catalog: { models: [...QWEN3_CATALOG, ...testModelEntries({ baseUrl })] }`, `testModelEntries` from `@webmcp-agents/chat/testing`. */
  testModels?: TestModelEntriesOptions;
}

/** What `createLocalAdapter` takes, by concern. Every field is optional. */
export interface LocalAdapterOptions extends DeprecatedLocalAdapterOptions {
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

/** The options as the adapter reads them: every group present, the old names moved into theirs. */
export interface ReadLocalAdapterOptions {
  id?: string;
  label?: string;
  maxSteps?: number;
  catalog: LocalCatalogOptions;
  worker: LocalWorkerOptions;
  generation: LocalGenerationOptions;
  /** The deprecated `testModels`: its entries are added when the adapter first probes (the module loads then, off the first render). */
  testModels?: TestModelEntriesOptions;
}

// Each old name and the group it moved to (`engine` became `worker.host`).
const MOVED = { models: "catalog", model: "catalog", rememberModel: "catalog", engines: "catalog", autoLoad: "catalog", engine: "worker", baseUrl: "worker", threads: "worker", constrainToolCalls: "generation" } as const;

/** `options` grouped: a group's own field wins over the old name, and each old name in use warns once here. */
export function readLocalAdapterOptions(options: LocalAdapterOptions): ReadLocalAdapterOptions {
  const groups = { catalog: { ...options.catalog }, worker: { ...options.worker }, generation: { ...options.generation } } as Record<string, Record<string, unknown>>;
  for (const [name, group] of Object.entries(MOVED)) {
    const value = options[name as keyof typeof MOVED];
    if (value === undefined) continue;
    const field = name === "engine" ? "host" : name;
    console.warn(`[web-agents] createLocalAdapter({ ${name} }) is deprecated: pass ${group}: { ${field} }.`);
    groups[group]![field] ??= value;
  }
  const catalog = groups.catalog as LocalCatalogOptions;
  if (options.testModels) console.warn("[web-agents] createLocalAdapter({ testModels }) is deprecated: add testModelEntries({ baseUrl }) from @webmcp-agents/chat/testing to catalog.models.");
  return { ...options, catalog, worker: groups.worker!, generation: groups.generation! };
}

/**
 * The entries the adapter offers: `catalog.models`, else the Qwen3 catalog,
 * then the deprecated `testModels`' entries. The modules load here, when the
 * adapter first probes, so that a page with the chat does not ship the
 * catalog's data in its first render.
 */
export async function loadCatalogEntries({ catalog, testModels }: ReadLocalAdapterOptions): Promise<readonly CatalogEntry[]> {
  const models = catalog.models ?? (await import("../../../models/catalog.js")).QWEN3_CATALOG;
  return testModels ? [...models, ...(await import("../../../models/catalog-test-models.js")).testModelEntries(testModels)] : models;
}
