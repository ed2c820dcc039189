import { describe, expect, it } from "vitest";
import { QWEN35_CATALOG, QWEN3_CATALOG, QWEN_CATALOG } from "./catalog.js";
import { catalogEntrySchema, catalogSchema } from "./catalog-schema.js";
import { testModelEntries } from "./catalog-test-models.js";

describe("the model catalog", () => {
  it("matches its schema", () => {
    expect(() => catalogSchema.parse(QWEN3_CATALOG)).not.toThrow();
    expect(() => catalogSchema.parse(QWEN35_CATALOG)).not.toThrow();
    expect(() => catalogSchema.parse(QWEN_CATALOG)).not.toThrow();
  });

  it("offers Qwen3.5 0.8B (recommended), 2B and 4B in the qwen3.5 format, on WebGPU only, before Qwen3", () => {
    expect(QWEN_CATALOG.map((entry) => [entry.id, entry.format ?? "qwen3", entry.recommended === true])).toEqual([
      ["qwen3.5-0.8b", "qwen3.5", true],
      ["qwen3.5-2b", "qwen3.5", false],
      ["qwen3.5-4b", "qwen3.5", false],
      ["qwen3-0.6b", "qwen3", true],
      ["qwen3-1.7b", "qwen3", false],
      ["qwen3-4b", "qwen3", false],
    ]);
    expect(QWEN35_CATALOG.flatMap((entry) => entry.variants).every((variant) => variant.device === "webgpu")).toBe(true);
    expect(QWEN35_CATALOG.map((entry) => entry.variants.map((variant) => variant.id))).toEqual([
      ["webgpu-q4f16", "webgpu-q4", "webgpu-mlc-q4f16_1", "webgpu-mlc-q4f32_1"],
      ["webgpu-q4f16", "webgpu-q4", "webgpu-mlc-q4f16_1", "webgpu-mlc-q4f32_1"],
      // No q4 build of the 4B -OPT export was seen (../shared/hub/README.md).
      ["webgpu-q4f16", "webgpu-mlc-q4f16_1", "webgpu-mlc-q4f32_1"],
    ]);
    // On the -OPT exports transformers.js no longer pays a Scan per prompt position, and only it constrains tool calls exactly (qwen35-catalog.ts).
    expect(QWEN35_CATALOG.map((entry) => entry.engines)).toEqual([
      ["transformers", "web-llm"],
      ["transformers", "web-llm"],
      ["transformers", "web-llm"],
    ]);
  });

  it("names Qwen3.5's repos: the -OPT exports' text-only session pair for all three, web-llm's prebuilt ids", () => {
    const [small, medium, large] = QWEN35_CATALOG as [(typeof QWEN35_CATALOG)[0], (typeof QWEN35_CATALOG)[0], (typeof QWEN35_CATALOG)[0]];
    const onnx = (variant: { files: { path: string }[] }) => variant.files.map((file) => file.path).filter((path) => path.startsWith("onnx/"));
    expect(small.variants[0]).toMatchObject({ repo: "onnx-community/Qwen3.5-0.8B-ONNX-OPT", dtype: "q4f16" });
    expect(onnx(small.variants[0]!)).toEqual([
      "onnx/embed_tokens_q4f16.onnx",
      "onnx/embed_tokens_q4f16.onnx_data",
      "onnx/decoder_model_merged_q4f16.onnx",
      "onnx/decoder_model_merged_q4f16.onnx_data",
    ]);
    expect(medium.variants[0]).toMatchObject({ repo: "onnx-community/Qwen3.5-2B-ONNX-OPT", dtype: "q4f16" });
    expect(large.variants[0]).toMatchObject({ repo: "onnx-community/Qwen3.5-4B-ONNX-OPT", dtype: "q4f16" });
    expect(onnx(medium.variants[1]!)).toEqual([
      "onnx/embed_tokens_q4.onnx",
      "onnx/embed_tokens_q4.onnx_data",
      "onnx/decoder_model_merged_q4.onnx",
      "onnx/decoder_model_merged_q4.onnx_data",
    ]);
    expect(onnx(large.variants[0]!)).toContain("onnx/decoder_model_merged_q4f16.onnx_data_1");
    expect(QWEN35_CATALOG.flatMap((entry) => entry.variants.flatMap((variant) => variant.files.map((file) => file.path)))).not.toContain(expect.stringMatching(/vision/));
    expect(QWEN35_CATALOG.flatMap((entry) => entry.variants.filter((variant) => variant.engine === "web-llm").map((variant) => variant.repo))).toEqual([
      "Qwen3.5-0.8B-q4f16_1-MLC",
      "Qwen3.5-0.8B-q4f32_1-MLC",
      "Qwen3.5-2B-q4f16_1-MLC",
      "Qwen3.5-2B-q4f32_1-MLC",
      "Qwen3.5-4B-q4f16_1-MLC",
      "Qwen3.5-4B-q4f32_1-MLC",
    ]);
    // web-llm's own vram_required_MB, in the brief the picker shows on a device that runs the variant.
    expect(small.variants.filter((variant) => variant.engine === "web-llm").map((variant) => variant.brief)).toEqual([
      expect.stringContaining("1.6 GB"),
      expect.stringContaining("1.9 GB"),
    ]);
  });

  it("accepts one graph or the text-only pair, and nothing else", () => {
    const pair = structuredClone(QWEN35_CATALOG[1]!);
    expect(catalogEntrySchema.safeParse(pair).success).toBe(true);
    const half = structuredClone(pair);
    half.variants[0]!.files = half.variants[0]!.files.filter((file) => !file.path.startsWith("onnx/embed_tokens"));
    half.variants[0]!.bytes = half.variants[0]!.files.reduce((sum, file) => sum + file.bytes, 0);
    expect(catalogEntrySchema.safeParse(half).error?.issues.map((issue) => issue.message)).toEqual([
      'must include one .onnx graph, model_<dtype>.onnx (for dtype "q4f16"), or the text-only pair embed_tokens_<dtype>.onnx + decoder_model_merged_<dtype>.onnx; found decoder_model_merged_q4f16.onnx',
    ]);
    const vision = structuredClone(pair);
    vision.variants[0]!.files.push({ path: "onnx/vision_encoder_q4f16.onnx", bytes: 1_000 });
    vision.variants[0]!.bytes += 1_000;
    expect(catalogEntrySchema.safeParse(vision).success).toBe(false);
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
      revision: "da1453100cf3ff33ef56d17983fc7a8648706db6",
      files: expect.arrayContaining([{ path: "onnx/model_q4f16.onnx", bytes: 569_789_750, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]),
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
    expect(large.files.map((file) => file.path)).toEqual(expect.arrayContaining(["onnx/model_q4f16.onnx_data", "onnx/model_q4f16.onnx_data_1"]));
    // What the hub lacks is not offered: 1.7B's q4 is one graph past 2 GB, 4B has no q4 build.
    expect(QWEN3_CATALOG.map((entry) => entry.variants.filter((variant) => variant.engine === "transformers").map((variant) => variant.id))).toEqual([
      ["webgpu-q4f16", "webgpu-q4", "wasm-q8"],
      ["webgpu-q4f16"],
      ["webgpu-q4f16"],
    ]);
  });

  it("pins every transformers.js variant to a commit, and every size it lists is exact but the two no record agrees on", () => {
    for (const entry of QWEN_CATALOG) {
      for (const variant of entry.variants.filter((candidate) => candidate.engine === "transformers")) {
        expect(variant.revision, `${entry.id}/${variant.id}`).toMatch(/^[0-9a-f]{40}$/);
        const estimates = variant.files.filter((file) => file.sha256 === undefined && file.exactBytes !== true).map((file) => `${variant.repo} ${file.path}`);
        expect(estimates).toEqual(
          variant.repo === "onnx-community/Qwen3-4B-ONNX" ? ["onnx-community/Qwen3-4B-ONNX config.json", "onnx-community/Qwen3-4B-ONNX tokenizer_config.json"] : [],
        );
      }
    }
  });

  it("rejects what would break a download", () => {
    const entry = structuredClone(QWEN3_CATALOG[2]!);
    const variant = entry.variants[0]!;
    variant.files = variant.files.filter((file) => !/_data(_\d+)?$/.test(file.path));
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

  it("rejects data chunks transformers.js would never open: a gap, or a chunk without its graph", () => {
    const withChunks = (paths: string[]) => {
      const entry = structuredClone(QWEN3_CATALOG[2]!);
      const variant = entry.variants[0]!;
      variant.files = variant.files.filter((file) => !file.path.startsWith("onnx/")).concat(paths.map((path) => ({ path, bytes: 10 })));
      variant.bytes = variant.files.reduce((sum, file) => sum + file.bytes, 0);
      return catalogEntrySchema.safeParse(entry).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];
    };
    expect(withChunks(["onnx/model_q4f16.onnx", "onnx/model_q4f16.onnx_data", "onnx/model_q4f16.onnx_data_1"])).toEqual([]);
    expect(withChunks(["onnx/model_q4f16.onnx", "onnx/model_q4f16.onnx_data_1"])).toEqual([
      "variants.0.files.5.path: follows onnx/model_q4f16.onnx_data, which the variant does not list: transformers.js opens chunks in order",
    ]);
    expect(withChunks(["onnx/model_q4f16.onnx", "onnx/model_q4.onnx_data"])).toEqual([
      "variants.0.files.5.path: is a data chunk of onnx/model_q4.onnx, which the variant does not list",
    ]);
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
