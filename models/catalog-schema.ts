/**
 * The model catalog's record types and the schema that checks them
 * (`zod/mini`: a few KB, and only where something validates a catalog: the
 * tests, or a site declaring its own models with `defineModel`). Every check
 * says which field is wrong and how to fix it. The catalog itself is plain
 * data in `catalog.ts`.
 */
import * as z from "zod/mini";
import type { EngineDevice, EngineKind } from "./model-source.js";
import { MODEL_FORMATS, type ModelFormatId } from "./model-format-id.js";

/**
 * One file of a variant. With `sha256`, `bytes` is the exact size: a
 * download of any other size, or with any other hash, is rejected before the
 * cache keeps it. With `exactBytes` and no hash, the size alone is enforced.
 * With neither, `bytes` is an estimate that sizes the progress bar and the
 * storage check, and the server's `content-length` is enforced instead.
 */
export interface CatalogFile {
  /** Path inside the repo, e.g. `onnx/model_q4f16.onnx`. */
  path: string;
  /** Size in bytes: exact with `sha256` or `exactBytes`, else approximate. */
  bytes: number;
  /** Hex SHA-256 of the file (64 characters, as `sha256sum` prints it). Pins the file: its size and hash are checked. */
  sha256?: string;
  /** `bytes` is exact (a download of another size is rejected) though no hash is known. Default: exact only with `sha256`. */
  exactBytes?: boolean;
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
  /**
   * The repo's commit (or branch) the files are fetched at:
   * `${baseUrl}/${repo}/resolve/${revision}/${path}`. The built-in catalogs
   * pin a 40-hex commit, so that a file's size and sha256 hold. Default
   * `"main"`: a site serving its own copy lays it out under `resolve/main/`.
   * Ignored by web-llm, which fetches its own files.
   */
  revision?: string;
  /** Needs WebGPU's `shader-f16` (fp16 activations). */
  requiresShaderF16: boolean;
  /**
   * What to download. Empty for web-llm, which fetches its own list. For
   * transformers.js: `config.json`, the tokenizer files, and either one
   * graph (`onnx/model_<dtype>.onnx`) or, for a multimodal export run as
   * text only, the pair `onnx/embed_tokens_<dtype>.onnx` +
   * `onnx/decoder_model_merged_<dtype>.onnx`; each with its
   * `<file>_data` (`_data_1`, …) where the weights sit outside the graph.
   * The engine opens exactly the `_data` chunks listed here (transformers.js's
   * `use_external_data_format`), whatever the repo's `config.json` declares.
   */
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
  /**
   * The family's prompt and tool-call format (one of `MODEL_FORMATS`):
   * how the prompt carries tools and past calls, and how the output's tool
   * calls are read. Default `"qwen3"` (JSON calls in `<tool_call>`);
   * `"qwen3.5"`: XML calls (`<function=…>` / `<parameter=…>`).
   */
  format?: ModelFormatId;
  /**
   * A device's default where the device can run it. Several entries may be
   * marked: a device's default is the first marked entry, in catalog order,
   * that runs on it (`recommendedEntryId`), so a catalog can recommend a
   * GPU-only model first and a CPU one after it.
   */
  recommended?: boolean;
  /** One of the project's own test models: never in the default catalog. */
  testModel?: boolean;
  /** Where this entry's files come from, overriding the adapter's `baseUrl` (test models served by the site). */
  baseUrl?: string;
  /**
   * Engines in order of preference among this model's variants of equal rank,
   * where the adapter's `engines` option names none (see `resolveVariant`).
   * Default `["transformers", "web-llm"]`. The Qwen3.5 entries say so
   * themselves, with why (models/qwen35-catalog.ts).
   */
  engines?: readonly EngineKind[];
  /** In order of preference among variants of equal rank (see `resolveVariant`). */
  variants: CatalogVariant[];
}

/** protobuf's limit: an ONNX file's weights past it live in `<file>.onnx_data`. */
export const ONNX_INLINE_LIMIT_BYTES = 2_000_000_000;

const ID = /^[a-z0-9][a-z0-9._-]*$/;
const quotedList = (values: readonly string[]) => {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}` : (quoted[0] ?? "");
};
const idMessage = "must be lowercase letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. \"qwen3-0.6b\")";
const text = (what: string) => z.string().check(z.minLength(1, `must be a non-empty string: ${what}`));
const positiveInteger = (what: string) =>
  z.number({ error: `must be a number: ${what}` }).check(z.int(`must be a whole number: ${what}`), z.positive(`must be more than 0: ${what}`));

const fileSchema = z.strictObject(
  {
    path: z.string().check(z.regex(/^[^/].*[^/]$|^[^/]$/, 'must be a path inside the repo, with no leading or trailing "/" (e.g. "onnx/model_q8.onnx")')),
    bytes: positiveInteger("the file's size in bytes (exact when sha256 is given)"),
    sha256: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal characters, as `sha256sum <file>` prints them"))),
    exactBytes: z.optional(z.boolean({ error: "must be true or false: whether bytes is the file's exact size" })),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `has unknown fields ${issue.keys.join(", ")}: a file has path, bytes, sha256 and exactBytes` : undefined) },
);

const variantSchema = z
  .strictObject(
    {
      id: z.string().check(z.regex(ID, idMessage)),
      engine: z.enum(["transformers", "web-llm"], { error: 'must be "transformers" or "web-llm"' }),
      device: z.enum(["webgpu", "wasm"], { error: 'must be "webgpu" or "wasm" (the CPU)' }),
      dtype: text('the transformers.js dtype ("q4f16", "q4", "q8", "fp32") or the MLC quantization ("q4f16_1")'),
      repo: text("the repo path the files sit under: <baseUrl>/<repo>/resolve/<revision>/<path>"),
      revision: z.optional(z.string().check(z.regex(/^[^\s/]+$/, 'must be a commit or branch name with no spaces or "/" (e.g. a 40-hex commit, or "main")'))),
      requiresShaderF16: z.boolean({ error: "must be true or false: whether the variant needs WebGPU's shader-f16" }),
      files: z.array(fileSchema, { error: "must be an array of { path, bytes, sha256? }" }),
      bytes: positiveInteger("the variant's download size, the sum of its files' bytes"),
      label: z.optional(text("the label shown on a device that runs this variant")),
      brief: z.optional(text("the brief shown on a device that runs this variant")),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `has unknown fields ${issue.keys.join(", ")}` : undefined) },
  )
  .check(
    z.superRefine((variant, context) => {
      const issue = (path: (string | number)[], message: string) => context.addIssue({ code: "custom", path, message, input: variant });
      if (variant.engine === "web-llm") {
        if (variant.device !== "webgpu") issue(["device"], 'must be "webgpu": web-llm runs on WebGPU only');
        return;
      }
      if (variant.requiresShaderF16 && variant.device !== "webgpu") issue(["requiresShaderF16"], 'must be false on "wasm": shader-f16 is a WebGPU feature');
      const paths = variant.files.map((file) => file.path);
      for (const required of ["config.json", "tokenizer.json", "tokenizer_config.json"]) {
        if (!paths.includes(required)) issue(["files"], `must include ${required}: transformers.js reads it to load the model`);
      }
      // One graph (`onnx/model_<dtype>.onnx`), or the text-only pair a multimodal export loads
      // through AutoModelForCausalLM (`embed_tokens_<dtype>.onnx` + `decoder_model_merged_<dtype>.onnx`).
      const onnx = variant.files.filter((file) => file.path.endsWith(".onnx")).map((file) => file.path.split("/").at(-1)!);
      const oneGraph = onnx.length === 1 && onnx[0]!.startsWith("model");
      const textOnlyPair = onnx.length === 2 && onnx.some((name) => name.startsWith("embed_tokens")) && onnx.some((name) => name.startsWith("decoder_model_merged"));
      if (!oneGraph && !textOnlyPair) {
        const found = onnx.length ? onnx.join(", ") : "none";
        issue(["files"], `must include one .onnx graph, model_<dtype>.onnx (for dtype "${variant.dtype}"), or the text-only pair embed_tokens_<dtype>.onnx + decoder_model_merged_<dtype>.onnx; found ${found}`);
      }
      variant.files.forEach((file, index) => {
        if (file.path.endsWith(".onnx") && file.bytes > ONNX_INLINE_LIMIT_BYTES && !paths.includes(`${file.path}_data`)) {
          issue(["files", index, "bytes"], `${file.path} is over 2 GB: its weights belong in ${file.path}_data, listed too`);
        }
        // transformers.js opens a graph's chunks as `_data`, `_data_1`, … in order: a gap or an orphan never loads.
        const chunk = /^(.*\.onnx)_data(?:_(\d+))?$/.exec(file.path);
        if (chunk) {
          const [, graph, number] = chunk;
          const previous = number === undefined ? graph! : Number(number) === 1 ? `${graph}_data` : `${graph}_data_${Number(number) - 1}`;
          if (!paths.includes(graph!)) issue(["files", index, "path"], `is a data chunk of ${graph}, which the variant does not list`);
          else if (!paths.includes(previous)) issue(["files", index, "path"], `follows ${previous}, which the variant does not list: transformers.js opens chunks in order`);
        }
      });
      const sum = variant.files.reduce((total, file) => total + file.bytes, 0);
      if (sum !== variant.bytes) issue(["bytes"], `must be the files' sum, ${sum} (it is ${variant.bytes})`);
    }),
  );

/** One catalog entry. */
export const catalogEntrySchema = z
  .strictObject(
    {
      id: z.string().check(z.regex(ID, idMessage)),
      label: text('the short name shown in the picker, e.g. "Qwen3 0.6B"'),
      brief: text("one sentence on when to pick this model"),
      parameters: positiveInteger("the parameter count, embeddings included"),
      format: z.optional(z.enum(MODEL_FORMATS, { error: `must be ${quotedList(MODEL_FORMATS)} (the family's prompt and tool-call format)` })),
      recommended: z.optional(z.boolean({ error: "must be true or false" })),
      testModel: z.optional(z.boolean({ error: "must be true or false" })),
      baseUrl: z.optional(text('where the files are served from: an absolute URL or a path on this site, e.g. "/models"')),
      engines: z.optional(
        z.array(z.enum(["transformers", "web-llm"], { error: 'must list "transformers" and/or "web-llm"' }), {
          error: 'must be an array of engines in order of preference, e.g. ["web-llm", "transformers"]',
        }),
      ),
      variants: z.array(variantSchema, { error: "must be an array of variants" }).check(z.minLength(1, "must list at least one variant: the way the model runs on a device")),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `has unknown fields ${issue.keys.join(", ")}` : undefined) },
  )
  .check(
    z.superRefine((entry, context) => {
      const ids = entry.variants.map((variant) => variant.id);
      if (new Set(ids).size !== ids.length) context.addIssue({ code: "custom", path: ["variants"], message: "must have unique ids", input: entry });
    }),
  ) satisfies z.ZodMiniType<CatalogEntry>;

/** A whole catalog: unique ids (several entries may be recommended: see `CatalogEntry.recommended`). */
export const catalogSchema = z.array(catalogEntrySchema).check(
  z.superRefine((entries, context) => {
    const ids = entries.map((entry) => entry.id);
    if (new Set(ids).size !== ids.length) context.addIssue({ code: "custom", message: "catalog ids repeat", input: entries });
  }),
);
