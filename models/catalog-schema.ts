/**
 * The model catalog's record types and the zod schema that checks them.
 * The types are erased at build time; the schema (and zod) loads only where
 * something validates a catalog: the tests, or a site checking its own
 * entries. The catalog itself is plain data in `catalog.ts`.
 */
import { z } from "zod";
import type { EngineDevice, EngineKind } from "../worker/protocol.js";

/**
 * One file of a variant. `bytes` is an estimate from the parameter count and
 * the bits per weight (or the real size, for small files); the download
 * measures the real sizes.
 */
export interface CatalogFile {
  /** Path inside the repo, e.g. `onnx/model_q4f16.onnx`. */
  path: string;
  /** Approximate size in bytes. */
  bytes: number;
}

/** One way to run a model: an engine, a device, a quantization and its files. */
export interface CatalogVariant {
  /** Unique within the entry, e.g. `webgpu-q4f16`; the source key is `<entry id>/<variant id>`. */
  id: string;
  engine: EngineKind;
  device: EngineDevice;
  /** transformers.js `dtype` (`q4f16`, `q4`, `q8`, `fp32`) or the MLC quantization (`q4f16_1`, `q4f32_1`). */
  dtype: string;
  /** Hub repo (`onnx-community/Qwen3-0.6B-ONNX`) or, for web-llm, the MLC model id (`Qwen3-0.6B-q4f16_1-MLC`). */
  repo: string;
  /** Needs WebGPU's `shader-f16` (fp16 activations). */
  requiresShaderF16: boolean;
  /** What to download. Empty for web-llm, which fetches its own list. */
  files: CatalogFile[];
  /** Approximate download size: the files' sum, or the weights' estimate for web-llm. */
  bytes: number;
  /** Overrides the entry's label on this device, e.g. "Qwen3 0.6B (CPU)". */
  label?: string;
  /** Overrides the entry's brief on this device. */
  brief?: string;
}

/** One model in the picker, with the variants that serve it on different devices. */
export interface CatalogEntry {
  /** Stable id, the one `selectModel` takes, e.g. `qwen3-0.6b`. */
  id: string;
  /** Short name, e.g. "Qwen3 0.6B". */
  label: string;
  /** One sentence on when to pick it. */
  brief: string;
  /** Parameter count, embeddings included. */
  parameters: number;
  /** The default where the device can run it. */
  recommended?: boolean;
  /** One of the project's own test models: never in the default catalog. */
  testModel?: boolean;
  /** Where this entry's files come from, overriding the adapter's `baseUrl` (test models served by the site). */
  baseUrl?: string;
  /** In order of preference among variants of equal rank (see `resolveVariant`). */
  variants: CatalogVariant[];
}

/** protobuf's limit: an ONNX file's weights past it live in `<file>.onnx_data`. */
export const ONNX_INLINE_LIMIT_BYTES = 2_000_000_000;

const fileSchema = z.object({
  path: z.string().min(1).regex(/^[^/].*[^/]$/, "a relative file path"),
  bytes: z.number().int().positive(),
});

const variantSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
    engine: z.enum(["transformers", "web-llm"]),
    device: z.enum(["webgpu", "wasm"]),
    dtype: z.string().min(1),
    repo: z.string().min(1),
    requiresShaderF16: z.boolean(),
    files: z.array(fileSchema),
    bytes: z.number().int().positive(),
    label: z.string().min(1).optional(),
    brief: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((variant, context) => {
    const issue = (message: string) => context.addIssue({ code: "custom", message: `${variant.id}: ${message}` });
    if (variant.engine === "web-llm") {
      if (variant.device !== "webgpu") issue("web-llm runs on WebGPU only");
      return;
    }
    if (variant.requiresShaderF16 && variant.device !== "webgpu") issue("shader-f16 is a WebGPU feature");
    const paths = variant.files.map((file) => file.path);
    for (const required of ["config.json", "tokenizer.json", "tokenizer_config.json"]) {
      if (!paths.includes(required)) issue(`transformers.js needs ${required}`);
    }
    const onnx = variant.files.filter((file) => file.path.endsWith(".onnx"));
    if (onnx.length !== 1) issue("exactly one .onnx file");
    for (const file of onnx) {
      const external = paths.includes(`${file.path}_data`);
      if (file.bytes > ONNX_INLINE_LIMIT_BYTES && !external) issue(`${file.path} is over 2 GB: its weights belong in ${file.path}_data`);
    }
    const sum = variant.files.reduce((total, file) => total + file.bytes, 0);
    if (sum !== variant.bytes) issue(`bytes ${variant.bytes} is not the files' sum ${sum}`);
  });

/** One catalog entry. */
export const catalogEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
    label: z.string().min(1),
    brief: z.string().min(1),
    parameters: z.number().int().positive(),
    recommended: z.boolean().optional(),
    testModel: z.boolean().optional(),
    baseUrl: z.string().min(1).optional(),
    variants: z.array(variantSchema).min(1),
  })
  .strict()
  .superRefine((entry, context) => {
    const ids = entry.variants.map((variant) => variant.id);
    if (new Set(ids).size !== ids.length) context.addIssue({ code: "custom", message: `${entry.id}: variant ids repeat` });
  }) satisfies z.ZodType<CatalogEntry>;

/** A whole catalog: unique ids, at most one recommended entry. */
export const catalogSchema = z.array(catalogEntrySchema).superRefine((entries, context) => {
  const ids = entries.map((entry) => entry.id);
  if (new Set(ids).size !== ids.length) context.addIssue({ code: "custom", message: "catalog ids repeat" });
  if (entries.filter((entry) => entry.recommended).length > 1) context.addIssue({ code: "custom", message: "more than one recommended entry" });
});
