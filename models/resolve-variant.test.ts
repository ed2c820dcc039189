import { describe, expect, it } from "vitest";
import type { DeviceCapabilities } from "../worker/protocol.js";
import { CPU_FALLBACK_NOTE, CPU_SLOWER_NOTE, QWEN35_CATALOG, QWEN3_CATALOG, QWEN_CATALOG } from "./catalog.js";
import { testModelEntries } from "./catalog-test-models.js";
import { FALLBACK_ADAPTER_NOTE, SOFTWARE_WEBGPU_NOTE, explainUnavailable, recommendedEntryId, resolveVariant, toModelSource } from "./resolve-variant.js";

const base: DeviceCapabilities = { webgpu: true, fallbackAdapter: false, shaderF16: true, cores: 8, crossOriginIsolated: false };
const [small, medium, large] = QWEN3_CATALOG as [(typeof QWEN3_CATALOG)[0], (typeof QWEN3_CATALOG)[0], (typeof QWEN3_CATALOG)[0]];

describe("resolveVariant", () => {
  it("picks q4f16 on transformers.js where WebGPU has shader-f16", () => {
    for (const entry of QWEN3_CATALOG) {
      const resolved = resolveVariant(entry, base)!;
      expect(resolved.variant).toMatchObject({ engine: "transformers", device: "webgpu", dtype: "q4f16" });
      expect(resolved.key).toBe(`${entry.id}/webgpu-q4f16`);
      expect(resolved.note).toBeUndefined();
    }
  });

  it("picks an fp32-activation variant where WebGPU lacks shader-f16: transformers.js q4 where the hub has a loadable one, else web-llm's q4f32_1", () => {
    const noF16 = { ...base, shaderF16: false };
    expect(resolveVariant(small, noF16)!.variant).toMatchObject({ engine: "transformers", dtype: "q4", requiresShaderF16: false });
    // 1.7B's q4 is one graph past 2 GB, 4B has none: web-llm serves them.
    expect(resolveVariant(medium, noF16)!.variant).toMatchObject({ engine: "web-llm", dtype: "q4f32_1" });
    expect(resolveVariant(large, noF16)!.variant).toMatchObject({ engine: "web-llm", dtype: "q4f32_1" });
  });

  it("picks the MLC variants when web-llm is preferred", () => {
    expect(resolveVariant(large, base, { engines: ["web-llm", "transformers"] })!.variant.dtype).toBe("q4f16_1");
    expect(resolveVariant(large, { ...base, shaderF16: false }, { engines: ["web-llm"] })!.variant.dtype).toBe("q4f32_1");
  });

  it("runs only the CPU q8 variant without WebGPU, with a note that says so truly: the same model, on the processor, slower", () => {
    const cpu = { ...base, webgpu: false, shaderF16: false };
    const resolved = resolveVariant(small, cpu)!;
    expect(resolved.variant).toMatchObject({ engine: "transformers", device: "wasm", dtype: "q8" });
    expect(resolved.note).toBe(`${CPU_FALLBACK_NOTE} ${CPU_SLOWER_NOTE}`);
    expect(resolved.note).toBe("No WebGPU in this browser: the model runs on the processor (CPU). Replies come more slowly than on a graphics chip.");
    // Not "smaller": the CPU build of Qwen3 0.6B is a bigger download than the WebGPU one.
    expect(resolved.note).not.toMatch(/smaller/);
    expect(resolved.variant.bytes).toBeGreaterThan(resolveVariant(small, base)!.variant.bytes);
    expect(resolved.label).toBe("Qwen3 0.6B (CPU)");
    expect(resolveVariant(medium, cpu)).toBeUndefined();
    expect(resolveVariant(large, cpu)).toBeUndefined();
    expect(explainUnavailable(large, cpu)).toMatch(/needs WebGPU/);
  });

  it("runs the CPU variant on a software WebGPU adapter (SwiftShader), where it is faster, and says why", () => {
    const software = { ...base, shaderF16: false, fallbackAdapter: true };
    expect(resolveVariant(small, software)).toMatchObject({ variant: { device: "wasm", dtype: "q8" }, note: SOFTWARE_WEBGPU_NOTE });
    // An entry with no CPU variant still runs on the software adapter, with the warning.
    expect(resolveVariant(medium, software)).toMatchObject({ variant: { dtype: "q4f32_1" }, note: FALLBACK_ADAPTER_NOTE });
    expect(resolveVariant(QWEN35_CATALOG[0]!, software)).toMatchObject({ variant: { device: "webgpu" }, note: FALLBACK_ADAPTER_NOTE });
  });

  it("gives a test model on the CPU only the note that is true of it (no word on speed)", () => {
    const [scripted] = testModelEntries({ baseUrl: "/models/test" });
    expect(resolveVariant(scripted!, { ...base, webgpu: false, shaderF16: false })!.note).toBe(CPU_FALLBACK_NOTE);
    expect(resolveVariant(scripted!, base)!.note).toBeUndefined();
  });

  it("ignores engines left out of the preference list", () => {
    expect(resolveVariant(medium, base, { engines: [] })).toBeUndefined();
  });
});

describe("Qwen3.5 and the recommendation", () => {
  const runnable = (capabilities: DeviceCapabilities, options?: Parameters<typeof resolveVariant>[2]) =>
    QWEN_CATALOG.filter((entry) => resolveVariant(entry, capabilities, options) !== undefined);

  it("runs Qwen3.5 on WebGPU only, on transformers.js first (the -OPT exports), web-llm where transformers.js has no build, nothing on the CPU", () => {
    expect(QWEN35_CATALOG.map((entry) => resolveVariant(entry, base)!.key)).toEqual([
      "qwen3.5-0.8b/webgpu-q4f16",
      "qwen3.5-2b/webgpu-q4f16",
      "qwen3.5-4b/webgpu-q4f16",
    ]);
    // No q4 build of the 4B -OPT export was seen: without shader-f16, web-llm's q4f32_1 serves it.
    const noF16 = { ...base, shaderF16: false };
    expect(QWEN35_CATALOG.map((entry) => resolveVariant(entry, noF16)!.key)).toEqual([
      "qwen3.5-0.8b/webgpu-q4",
      "qwen3.5-2b/webgpu-q4",
      "qwen3.5-4b/webgpu-mlc-q4f32_1",
    ]);
    // A site that runs web-llm only still gets every size: q4f16_1, or q4f32_1 without shader-f16.
    const webLlmOnly = { engines: ["web-llm"] as const };
    expect(QWEN35_CATALOG.map((entry) => resolveVariant(entry, base, webLlmOnly)!.key)).toEqual([
      "qwen3.5-0.8b/webgpu-mlc-q4f16_1",
      "qwen3.5-2b/webgpu-mlc-q4f16_1",
      "qwen3.5-4b/webgpu-mlc-q4f16_1",
    ]);
    expect(QWEN35_CATALOG.map((entry) => resolveVariant(entry, noF16, webLlmOnly)!.key)).toEqual([
      "qwen3.5-0.8b/webgpu-mlc-q4f32_1",
      "qwen3.5-2b/webgpu-mlc-q4f32_1",
      "qwen3.5-4b/webgpu-mlc-q4f32_1",
    ]);
    const cpu = { ...base, webgpu: false, shaderF16: false };
    expect(QWEN35_CATALOG.map((entry) => resolveVariant(entry, cpu))).toEqual([undefined, undefined, undefined]);
    expect(explainUnavailable(QWEN35_CATALOG[0]!, cpu)).toBe("Qwen3.5 0.8B needs WebGPU, which this browser does not offer.");
  });

  it("recommends the first recommended entry that runs: Qwen3.5 0.8B on WebGPU, Qwen3 0.6B on the CPU", () => {
    expect(recommendedEntryId(runnable(base))).toBe("qwen3.5-0.8b");
    expect(recommendedEntryId(runnable({ ...base, shaderF16: false }))).toBe("qwen3.5-0.8b");
    expect(recommendedEntryId(runnable(base, { engines: ["web-llm"] }))).toBe("qwen3.5-0.8b");
    expect(recommendedEntryId(runnable({ ...base, webgpu: false, shaderF16: false }))).toBe("qwen3-0.6b");
    expect(recommendedEntryId(QWEN3_CATALOG.slice(1))).toBeUndefined();
  });

  it("hands Qwen3.5's format to the engine, and none for Qwen3 (the default)", () => {
    expect(toModelSource(resolveVariant(QWEN35_CATALOG[1]!, base)!)).toMatchObject({
      key: "qwen3.5-2b/webgpu-q4f16",
      format: "qwen3.5",
      dtype: "q4f16",
      repo: "onnx-community/Qwen3.5-2B-ONNX-OPT",
      revision: "2ea7886f48b926aca97de8b0e041ffca7e3ebaa9",
    });
    expect(toModelSource(resolveVariant(QWEN35_CATALOG[1]!, base, { engines: ["web-llm"] })!)).toMatchObject({ key: "qwen3.5-2b/webgpu-mlc-q4f16_1", engine: "web-llm", format: "qwen3.5" });
    expect(toModelSource(resolveVariant(small, base)!)).not.toHaveProperty("format");
  });
});

describe("toModelSource", () => {
  it("puts the files under the configured base URL", () => {
    const source = toModelSource(resolveVariant(small, base)!, "https://models.example.com/hub/");
    expect(source).toMatchObject({
      key: "qwen3-0.6b/webgpu-q4f16",
      engine: "transformers",
      device: "webgpu",
      dtype: "q4f16",
      repo: "onnx-community/Qwen3-0.6B-ONNX",
      revision: "da1453100cf3ff33ef56d17983fc7a8648706db6",
      baseUrl: "https://models.example.com/hub",
    });
    expect(source.files.map((file) => file.path)).toEqual([
      "config.json",
      "generation_config.json",
      "tokenizer.json",
      "tokenizer_config.json",
      "chat_template.jinja",
      "onnx/model_q4f16.onnx",
    ]);
    // Pinned by sha256 (which pins the size), or by the exact size alone where no hash is recorded.
    expect(source.files.find((file) => file.path === "onnx/model_q4f16.onnx")).toMatchObject({ bytes: 569_789_750, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(source.files.find((file) => file.path === "chat_template.jinja")).toEqual({ path: "chat_template.jinja", bytes: 4_116, exactBytes: true });
    expect(toModelSource(resolveVariant(small, base)!).baseUrl).toBe("https://huggingface.co");
  });
});
