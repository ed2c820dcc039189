import type { CatalogEntry, CatalogFile, CatalogVariant } from "./catalog-schema.js";
import { catalogEntrySchema } from "./catalog-schema.js";

/** One way to run a model you host, as {@link defineModel} takes it. */
export interface ModelVariantDefinition extends Omit<CatalogVariant, "requiresShaderF16" | "bytes" | "files"> {
  /** The files to download, relative to `<baseUrl>/<repo>/resolve/<revision>/` (`main` unless the variant names a `revision`). Pin each with `sha256` and its exact `bytes`. */
  files: CatalogFile[];
  /** Needs WebGPU's `shader-f16`. Default: true for a WebGPU variant whose dtype has fp16 in it (`q4f16`, `fp16`), else false. */
  requiresShaderF16?: boolean;
  /** Download size in bytes. Default: the sum of the files' `bytes`. */
  bytes?: number;
}

/** A model you host, as {@link defineModel} takes it. */
export interface ModelDefinition extends Omit<CatalogEntry, "variants" | "testModel"> {
  /** The ways the model runs: one per engine, device and quantization you serve. */
  variants: ModelVariantDefinition[];
}

const pathOf = (path: readonly PropertyKey[]) =>
  path.map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join("") || "the model";

/**
 * Declares a model for `createLocalAdapter({ catalog: { models } })`: your own files,
 * served from your own origin (a relative `baseUrl` such as `"/models"`
 * works) or any host that sends CORS headers. Fills the defaults
 * (`requiresShaderF16`, each variant's `bytes`) and checks everything a
 * download and a load depend on, now rather than on a person's device.
 *
 * ```ts
 * const ours = defineModel({
 *   id: "qwen3-0.6b-ours",
 *   label: "Qwen3 0.6B",
 *   brief: "Fast; fine for simple tasks.",
 *   parameters: 596_049_920,
 *   baseUrl: "/models",
 *   variants: [{ id: "wasm-q8", engine: "transformers", device: "wasm", dtype: "q8", repo: "Qwen3-0.6B-ONNX",
 *     files: [{ path: "config.json", bytes: 1_386, sha256: "…" }, …] }],
 * });
 * ```
 *
 * @throws TypeError naming every wrong field and its fix, e.g.
 *   `defineModel("qwen3-0.6b-ours"): variants[0].files[2].sha256 must be 64 hexadecimal characters, as \`sha256sum <file>\` prints them.`
 */
export function defineModel(definition: ModelDefinition): CatalogEntry {
  if (typeof definition !== "object" || definition === null) {
    throw new TypeError("defineModel takes an object: { id, label, brief, parameters, baseUrl?, variants: [...] }.");
  }
  const variants = Array.isArray(definition.variants)
    ? definition.variants.map((variant) =>
        typeof variant !== "object" || variant === null
          ? variant
          : {
              ...variant,
              requiresShaderF16: variant.requiresShaderF16 ?? (variant.device === "webgpu" && /f16/.test(String(variant.dtype))),
              bytes: variant.bytes ?? (Array.isArray(variant.files) ? variant.files.reduce((sum, file) => sum + (Number(file?.bytes) || 0), 0) : 0),
            },
      )
    : definition.variants;
  const result = catalogEntrySchema.safeParse({ ...definition, variants });
  if (!result.success) {
    const name = typeof definition.id === "string" ? JSON.stringify(definition.id) : "";
    const problems = result.error.issues.map((issue) => `${pathOf(issue.path)} ${issue.message.replace(/\.$/, "")}.`);
    throw new TypeError(`defineModel(${name}): ${problems.join("\n")}`);
  }
  return result.data as CatalogEntry;
}
