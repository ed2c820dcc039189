import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoModelForCausalLM, AutoTokenizer, env, type Tensor } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "./ensure-test-model.js";
import { readQwen3TokenizerFiles } from "./qwen3-tokenizer.js";
import { qwen3ShapedModel } from "./qwen3-shaped-model.js";
import { QWEN3_0_6B_SHAPE, TINY_QWEN3_SHAPE } from "./qwen3-shape.js";
import { DTYPE_FILE_NAMES, type TestModelDtype } from "./test-model-definition.js";
import { writeTestModel } from "./write-test-model.js";

// The 0.6B-shaped builders' graphs (fp32, q8 MatMulInteger, q4 MatMulNBits)
// run here at the tiny shape through the real transformers.js: the same code
// and file names, megabytes instead of gigabytes.
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "shaped-model-"));
  env.allowRemoteModels = false;
  env.localModelPath = `${root}/`;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function generateWith(id: string, dtype: TestModelDtype): Promise<{ dims: number[]; added: number }> {
  const tokenizer = await AutoTokenizer.from_pretrained(id);
  const model = await AutoModelForCausalLM.from_pretrained(id, { dtype });
  try {
    const inputs = tokenizer.apply_chat_template([{ role: "user", content: "Hi" }], { add_generation_prompt: true, return_dict: true }) as unknown as {
      input_ids: Tensor;
    };
    const output = (await model.generate({ ...inputs, max_new_tokens: 6, min_new_tokens: 6, do_sample: false })) as Tensor;
    return { dims: output.dims, added: output.dims[1]! - inputs.input_ids.dims[1]! };
  } finally {
    await model.dispose();
  }
}

describe("qwen3ShapedModel", () => {
  it.each(["q8", "q4"] as const)("writes %s as transformers.js names it and generates through it", async (dtype) => {
    const id = `small-${dtype}`;
    const { manifest, folder } = await ensureTestModel(qwen3ShapedModel(dtype, { id, shape: TINY_QWEN3_SHAPE }), { root });
    expect(manifest.dtype).toBe(dtype);
    expect(manifest.files.map((file) => file.path)).toContain(`onnx/${DTYPE_FILE_NAMES[dtype]}`);
    expect(existsSync(join(folder, "onnx", "model.onnx"))).toBe(false);
    expect((await generateWith(id, dtype)).added).toBe(6);
  });

  it("puts fp32 weights in model.onnx_data and declares it in config.json", async () => {
    const id = "small-fp32-external";
    const folder = join(root, id);
    const definition = qwen3ShapedModel("fp32", { id, shape: TINY_QWEN3_SHAPE });
    const manifest = await writeTestModel(folder, definition, { tokenizerFiles: readQwen3TokenizerFiles(), stamp: "test", externalData: true });
    expect(manifest.files.map((file) => file.path)).toEqual(expect.arrayContaining(["onnx/model.onnx", "onnx/model.onnx_data"]));
    const config = JSON.parse(readFileSync(join(folder, "config.json"), "utf8"));
    expect(config["transformers.js_config"]).toEqual({ use_external_data_format: { "model.onnx": true } });
    expect((await generateWith(id, "fp32")).added).toBe(6);
  });

  it("defaults to Qwen3-0.6B's shapes and ids", () => {
    const definition = qwen3ShapedModel("q4");
    expect(definition.id).toBe("qwen3-0.6b-shaped-q4");
    expect(definition.shape).toBe(QWEN3_0_6B_SHAPE);
    expect(definition.approximateBytes).toBeGreaterThan(900e6);
  });
});
