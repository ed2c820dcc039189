import { describe, expect, it } from "vitest";
import { catalogSchema } from "./catalog-schema.js";
import { QWEN3_CATALOG } from "./catalog.js";
import { defineModel, type ModelDefinition } from "./define-model.js";
import { MODEL_FORMATS } from "./model-format-id.js";
import { resolveVariant, toModelSource } from "./resolve-variant.js";

const SHA = "a".repeat(64);
const definition = (): ModelDefinition => ({
  id: "qwen3-0.6b-ours",
  label: "Qwen3 0.6B",
  brief: "Fast; fine for simple tasks.",
  parameters: 596_049_920,
  baseUrl: "/models",
  variants: [
    {
      id: "wasm-q8",
      engine: "transformers",
      device: "wasm",
      dtype: "q8",
      repo: "Qwen3-0.6B-ONNX",
      files: [
        { path: "config.json", bytes: 1_386, sha256: SHA },
        { path: "tokenizer.json", bytes: 11_422_654, sha256: SHA },
        { path: "tokenizer_config.json", bytes: 9_675, sha256: SHA.toUpperCase() },
        { path: "onnx/model_quantized.onnx", bytes: 760_000_000, sha256: SHA },
      ],
    },
    {
      id: "webgpu-q4f16",
      engine: "transformers",
      device: "webgpu",
      dtype: "q4f16",
      repo: "Qwen3-0.6B-ONNX",
      files: [
        { path: "config.json", bytes: 1_386 },
        { path: "tokenizer.json", bytes: 11_422_654 },
        { path: "tokenizer_config.json", bytes: 9_675 },
        { path: "onnx/model_q4f16.onnx", bytes: 660_000_000 },
      ],
    },
  ],
});

const capabilities = { webgpu: false, fallbackAdapter: false, shaderF16: false, cores: 4, crossOriginIsolated: false };

describe("defineModel", () => {
  it("fills the defaults and passes the catalog schema beside the built-in catalog", () => {
    const entry = defineModel(definition());
    expect(entry.variants.map((variant) => [variant.id, variant.requiresShaderF16, variant.bytes])).toEqual([
      ["wasm-q8", false, 1_386 + 11_422_654 + 9_675 + 760_000_000],
      ["webgpu-q4f16", true, 1_386 + 11_422_654 + 9_675 + 660_000_000],
    ]);
    expect(() => catalogSchema.parse([...QWEN3_CATALOG, entry])).not.toThrow();
  });

  it("takes a format, qwen3 when it names none, and hands it to the engine", () => {
    expect(defineModel(definition()).format).toBeUndefined();
    expect(toModelSource(resolveVariant(defineModel(definition()), capabilities)!).format).toBeUndefined();
    const qwen35 = defineModel({ ...definition(), format: "qwen3.5" });
    expect(qwen35.format).toBe("qwen3.5");
    expect(toModelSource(resolveVariant(qwen35, capabilities)!).format).toBe("qwen3.5");
    expect(MODEL_FORMATS).toEqual(["qwen3", "qwen3.5"]);
  });

  it("hands each file's sha256 (lowercased) and exact size to the downloader", () => {
    const resolved = resolveVariant(defineModel(definition()), capabilities)!;
    const source = toModelSource(resolved);
    expect(source.files[2]).toEqual({ path: "tokenizer_config.json", bytes: 9_675, sha256: SHA });
    expect(source.baseUrl).toBe("/models");
  });

  it("resolves a relative baseUrl against the page, not the worker", () => {
    const globals = globalThis as { document?: unknown };
    globals.document = { baseURI: "https://shop.example/app/page.html" };
    try {
      const relative = toModelSource(resolveVariant(defineModel({ ...definition(), baseUrl: "models/" }), capabilities)!);
      const absolute = toModelSource(resolveVariant(defineModel(definition()), capabilities)!);
      expect(relative.baseUrl).toBe("https://shop.example/app/models");
      expect(absolute.baseUrl).toBe("https://shop.example/models");
    } finally {
      delete globals.document;
    }
  });

  it.each([
    ["a malformed sha256", (model: ModelDefinition) => void (model.variants[0]!.files[1]!.sha256 = "abc"), /variants\[0\]\.files\[1\]\.sha256 must be 64 hexadecimal characters/],
    ["a missing tokenizer", (model: ModelDefinition) => void model.variants[0]!.files.splice(1, 1), /variants\[0\]\.files must include tokenizer\.json/],
    ["a size that is not a number", (model: ModelDefinition) => void ((model.variants[1]!.files[0] as { bytes: unknown }).bytes = "1 KB"), /variants\[1\]\.files\[0\]\.bytes must be a number/],
    ["an unknown engine", (model: ModelDefinition) => void ((model.variants[0] as { engine: string }).engine = "llama.cpp"), /variants\[0\]\.engine must be "transformers" or "web-llm"/],
    ["a misspelt field", (model: ModelDefinition) => void ((model.variants[0]!.files[0] as unknown as Record<string, unknown>).sha265 = SHA), /variants\[0\]\.files\[0\] has unknown fields sha265/],
    ["an id with capitals", (model: ModelDefinition) => void (model.id = "My Model"), /^defineModel\("My Model"\): id must be lowercase/],
    ["no variants", (model: ModelDefinition) => void (model.variants = []), /variants must list at least one variant/],
    [
      "an unknown format",
      (model: ModelDefinition) => void ((model as { format?: string }).format = "qwen4"),
      /^defineModel\("qwen3-0\.6b-ours"\): format must be "qwen3" or "qwen3\.5" \(the family's prompt and tool-call format\)\.$/,
    ],
  ])("rejects %s with a TypeError naming the field and the fix", (_name, spoil, message) => {
    const model = definition();
    spoil(model);
    expect(() => defineModel(model)).toThrow(TypeError);
    expect(() => defineModel(model)).toThrow(message);
  });

  it("lists every problem at once", () => {
    const model = definition();
    model.label = "";
    model.variants[0]!.files[0]!.bytes = -1;
    const message = (() => {
      try {
        defineModel(model);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/label must be a non-empty string/);
    expect(message).toMatch(/variants\[0\]\.files\[0\]\.bytes must be more than 0/);
  });
});
