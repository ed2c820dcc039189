import type { DeviceCapabilities } from "./device-capabilities.js";
import type { EngineKind, ModelSource } from "./model-source.js";
import { CPU_FALLBACK_NOTE, CPU_SLOWER_NOTE, DEFAULT_MODEL_BASE_URL } from "./variant-notes.js";
import type { CatalogEntry, CatalogVariant } from "./catalog-schema.js";

export { recommendedEntryId } from "./recommended-entry-id.js";

/**
 * The note where the only WebGPU adapter is a software one (SwiftShader) and
 * the entry has no CPU variant: it runs on WebGPU, slowly.
 */
export const FALLBACK_ADAPTER_NOTE = "This browser's WebGPU runs in software here: replies will be slow.";

/**
 * The note where WebGPU is a software adapter and the CPU variant runs
 * instead: WebAssembly on the processor is far faster than WebGPU emulated
 * on it.
 */
export const SOFTWARE_WEBGPU_NOTE = "This browser's WebGPU runs in software here, so the model runs on the processor (CPU), which is faster.";

/** Options for {@link resolveVariant}. */
export interface ResolveVariantOptions {
  /**
   * The engines that may run a model, in order of preference among variants
   * of the same rank; an engine not listed is never used. Default: the
   * entry's own `engines`, else `["transformers", "web-llm"]`.
   */
  engines?: readonly EngineKind[];
}

/** The variant that serves an entry on this device. */
export interface ResolvedVariant {
  entry: CatalogEntry;
  variant: CatalogVariant;
  /** `<entry id>/<variant id>`: the source key, stable across releases. */
  key: string;
  /** The entry's label, or the variant's own. */
  label: string;
  brief: string;
  /** A caveat for the download card, e.g. {@link CPU_FALLBACK_NOTE}. */
  note?: string;
}

const DEFAULT_ENGINES: readonly EngineKind[] = ["transformers", "web-llm"];

/**
 * 0 is best: fp16 on a GPU that has it, then a GPU variant without fp16,
 * then the CPU. On a software WebGPU adapter (SwiftShader) the CPU comes
 * first: WASM runs a model far faster than WebGPU emulated on the same
 * processor. `undefined`: cannot run.
 */
function rank(variant: CatalogVariant, capabilities: DeviceCapabilities): number | undefined {
  const software = capabilities.webgpu && capabilities.fallbackAdapter;
  if (variant.device === "wasm") return capabilities.webgpu && !software ? 3 : 0;
  if (!capabilities.webgpu) return undefined;
  const gpu = software ? 1 : 0;
  if (variant.requiresShaderF16) return capabilities.shaderF16 ? gpu : undefined;
  return gpu + 1;
}

/** The download card's caveat for the variant chosen on this device, if any. */
function noteFor(entry: CatalogEntry, variant: CatalogVariant, capabilities: DeviceCapabilities): string | undefined {
  if (variant.device === "webgpu") return capabilities.fallbackAdapter ? FALLBACK_ADAPTER_NOTE : undefined;
  if (capabilities.webgpu && capabilities.fallbackAdapter) return SOFTWARE_WEBGPU_NOTE;
  if (capabilities.webgpu) return undefined;
  return entry.testModel ? CPU_FALLBACK_NOTE : `${CPU_FALLBACK_NOTE} ${CPU_SLOWER_NOTE}`;
}

/**
 * Picks the engine and variant that serve `entry` on a device, before
 * anything downloads: with WebGPU and `shader-f16`, a q4f16 variant; with
 * WebGPU but no `shader-f16`, an fp32-activation one (q4, MLC q4f32_1); with
 * no WebGPU, the CPU (wasm) variant only, with {@link CPU_FALLBACK_NOTE}
 * (and {@link CPU_SLOWER_NOTE} for a model that is not a test model). A
 * wasm variant is the last resort where a hardware WebGPU exists, and the
 * first choice where WebGPU is a software adapter (SwiftShader), with
 * {@link SOFTWARE_WEBGPU_NOTE}; an entry with no wasm variant then runs on
 * the software adapter with {@link FALLBACK_ADAPTER_NOTE}. Ties go to the
 * preferred engine (the `engines` option, else the entry's `engines`, else
 * transformers.js), then catalog order. `undefined` when nothing can run.
 */
export function resolveVariant(
  entry: CatalogEntry,
  capabilities: DeviceCapabilities,
  options: ResolveVariantOptions = {},
): ResolvedVariant | undefined {
  const engines = options.engines ?? entry.engines ?? DEFAULT_ENGINES;
  let best: { variant: CatalogVariant; score: number } | undefined;
  for (const variant of entry.variants) {
    const variantRank = rank(variant, capabilities);
    const enginePreference = engines.indexOf(variant.engine);
    if (variantRank === undefined || enginePreference === -1) continue;
    const score = variantRank * 100 + enginePreference;
    if (!best || score < best.score) best = { variant, score };
  }
  if (!best) return undefined;
  const { variant } = best;
  const note = noteFor(entry, variant, capabilities);
  return {
    entry,
    variant,
    key: `${entry.id}/${variant.id}`,
    label: variant.label ?? entry.label,
    brief: variant.brief ?? entry.brief,
    ...(note !== undefined && { note }),
  };
}

/** Why an entry cannot run on a device, for an `unavailable` status. */
export function explainUnavailable(entry: CatalogEntry, capabilities: DeviceCapabilities): string {
  const devices = new Set(entry.variants.map((variant) => variant.device));
  if (!capabilities.webgpu && !devices.has("wasm")) return `${entry.label} needs WebGPU, which this browser does not offer.`;
  if (entry.variants.every((variant) => variant.requiresShaderF16)) return `${entry.label} needs WebGPU with shader-f16, which this GPU lacks.`;
  return `No engine can run ${entry.label} here.`;
}

/**
 * What the engine gets: the entry's `format` (when it names one), and the
 * variant's files under `baseUrl` (the entry's own
 * `baseUrl` wins, then the argument, then {@link DEFAULT_MODEL_BASE_URL}).
 * A relative one is resolved against the page (`document.baseURI`).
 * Trailing slashes are dropped so `${baseUrl}/${repo}/resolve/${revision}/${path}`
 * has none doubled; the variant's `revision` (default `"main"`) names the commit.
 */
export function toModelSource(resolved: ResolvedVariant, baseUrl: string = DEFAULT_MODEL_BASE_URL): ModelSource {
  const { entry, variant } = resolved;
  // A relative baseUrl ("/models", "models") means this page's site: resolved against the
  // page here, on the main thread, not in the worker, whose script a bundler may put anywhere.
  const page = (globalThis as { document?: { baseURI?: string } }).document?.baseURI;
  const base = entry.baseUrl ?? baseUrl;
  return {
    key: resolved.key,
    engine: variant.engine,
    device: variant.device,
    dtype: variant.dtype,
    repo: variant.repo,
    ...(variant.revision !== undefined && { revision: variant.revision }),
    ...(entry.format !== undefined && { format: entry.format }),
    baseUrl: (page ? new URL(base, page).href : base).replace(/\/+$/, ""),
    // A file's sha256 pins it: the downloader then enforces its exact size and hash.
    files: variant.files.map(({ path, bytes, sha256, exactBytes }) => ({
      path,
      bytes,
      ...(sha256 !== undefined && { sha256: sha256.toLowerCase() }),
      ...(exactBytes === true && { exactBytes }),
    })),
  };
}
