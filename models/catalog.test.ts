import { describe, expect, it } from "vitest";
import { QWEN3_CATALOG } from "./catalog.js";
import { catalogEntrySchema, catalogSchema } from "./catalog-schema.js";
import { testModelEntries } from "./catalog-test-models.js";

describe("the model catalog", () => {
  it("matches its schema", () => {
    expect(() => catalogSchema.parse(QWEN3_CATALOG)).not.toThrow();
  });

  it("offers Qwen3 0.6B (recommended), 1.7B and 4B, with the 0.6B on the CPU in q8", () => {
    expect(QWEN3_CATALOG.map((entry) => entry.id)).toEqual(["qwen3-0.6b", "qwen3-1.7b", "qwen3-4b"]);
    expect(QWEN3_CATALOG.filter((entry) => entry.recommended).map((entry) => entry.id)).toEqual(["qwen3-0.6b"]);
    const cpu = QWEN3_CATALOG.flatMap((entry) => entry.variants.filter((variant) => variant.device === "wasm").map((variant) => [entry.id, variant.dtype]));
    expect(cpu).toEqual([["qwen3-0.6b", "q8"]]);
  });

  it("names the real repos and transformers.js file names", () => {
    const small = QWEN3_CATALOG[0]!.variants;
    expect(small.find((variant) => variant.id === "webgpu-q4f16")).toMatchObject({
      repo: "onnx-community/Qwen3-0.6B-ONNX",
      files: expect.arrayContaining([{ path: "onnx/model_q4f16.onnx", bytes: expect.any(Number) }]),
    });
    expect(small.find((variant) => variant.id === "wasm-q8")?.files.map((file) => file.path)).toContain("onnx/model_quantized.onnx");
    expect(QWEN3_CATALOG.flatMap((entry) => entry.variants.filter((variant) => variant.engine === "web-llm").map((variant) => variant.repo))).toEqual([
      "Qwen3-0.6B-q4f16_1-MLC",
      "Qwen3-0.6B-q4f32_1-MLC",
      "Qwen3-1.7B-q4f16_1-MLC",
      "Qwen3-1.7B-q4f32_1-MLC",
      "Qwen3-4B-q4f16_1-MLC",
      "Qwen3-4B-q4f32_1-MLC",
    ]);
    const large = QWEN3_CATALOG[2]!.variants.find((variant) => variant.id === "webgpu-q4f16")!;
    expect(large.files.map((file) => file.path)).toContain("onnx/model_q4f16.onnx_data");
  });

  it("rejects what would break a download", () => {
    const entry = structuredClone(QWEN3_CATALOG[2]!);
    const variant = entry.variants[0]!;
    variant.files = variant.files.filter((file) => !file.path.endsWith("_data"));
    variant.files[variant.files.length - 1]!.bytes = 3_000_000_000;
    variant.bytes = variant.files.reduce((sum, file) => sum + file.bytes, 0);
    expect(catalogEntrySchema.safeParse(entry).error?.issues[0]?.message).toMatch(/over 2 GB/);
    const webLlmOnCpu = structuredClone(QWEN3_CATALOG[0]!);
    webLlmOnCpu.variants[2]!.device = "wasm";
    expect(catalogEntrySchema.safeParse(webLlmOnCpu).success).toBe(false);
    const wrongSum = structuredClone(QWEN3_CATALOG[0]!);
    wrongSum.variants[0]!.bytes += 1;
    expect(catalogEntrySchema.safeParse(wrongSum).success).toBe(false);
    expect(catalogSchema.safeParse([QWEN3_CATALOG[0], QWEN3_CATALOG[0]]).success).toBe(false);
  });

  it("builds test-model entries, labelled as such, that pass the schema", () => {
    const entries = testModelEntries({ baseUrl: "http://127.0.0.1:5173/models" });
    expect(() => catalogSchema.parse([...QWEN3_CATALOG, ...entries])).not.toThrow();
    expect(entries.map((entry) => [entry.id, entry.testModel, entry.variants.map((variant) => variant.repo)])).toEqual([
      ["test-tiny", true, ["tiny", "tiny"]],
      ["test-scripted", true, ["scripted", "scripted"]],
    ]);
    expect(entries.every((entry) => entry.label.startsWith("Test model"))).toBe(true);
  });
});
