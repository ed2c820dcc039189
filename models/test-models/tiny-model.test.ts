import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoModelForCausalLM, AutoTokenizer, env, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, type EnsuredTestModel } from "./ensure-test-model.js";
import { TINY_QWEN3_SHAPE } from "./qwen3-shape.js";
import { tinyModel } from "./tiny-model.js";

// The real engine: transformers.js in Node on onnxruntime-node, no model hub.
let root: string;
let built: EnsuredTestModel;
let model: PreTrainedModel;
let tokenizer: PreTrainedTokenizer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "tiny-model-"));
  built = await ensureTestModel(tinyModel(), { root });
  env.allowRemoteModels = false;
  env.localModelPath = `${root}/`;
  tokenizer = await AutoTokenizer.from_pretrained("tiny");
  model = await AutoModelForCausalLM.from_pretrained("tiny", { dtype: "fp32" });
});

afterAll(async () => {
  await model?.dispose();
  rmSync(root, { recursive: true, force: true });
});

type Logits = { logits: Tensor } & Record<string, Tensor>;

function prompt(): { input_ids: Tensor; attention_mask: Tensor } {
  return tokenizer.apply_chat_template([{ role: "user", content: "What is on sale today?" }], {
    add_generation_prompt: true,
    return_dict: true,
  }) as unknown as { input_ids: Tensor; attention_mask: Tensor };
}

function ids(values: readonly bigint[]): { input_ids: Tensor; attention_mask: Tensor } {
  return {
    input_ids: new Tensor("int64", BigInt64Array.from(values), [1, values.length]),
    attention_mask: new Tensor("int64", new BigInt64Array(values.length).fill(1n), [1, values.length]),
  };
}

function row(logits: Tensor, position: number): Float32Array {
  const vocab = logits.dims[2]!;
  return (logits.data as Float32Array).subarray(position * vocab, (position + 1) * vocab);
}

function argmax(values: Float32Array): number {
  let best = 0;
  for (let index = 1; index < values.length; index++) if (values[index]! > values[best]!) best = index;
  return best;
}

describe("tiny", () => {
  it("is small and quick to build", () => {
    const onnx = built.manifest.files.find((file) => file.path === "onnx/model.onnx")!;
    expect(onnx.bytes).toBeLessThan(1_000_000);
    expect(built.buildMs).toBeLessThan(10_000);
    expect(built.manifest.files.map((file) => file.path)).toEqual([
      "config.json",
      "generation_config.json",
      "tokenizer.json",
      "tokenizer_config.json",
      "onnx/model.onnx",
    ]);
  });

  it("generates exactly the tokens asked for, greedily and reproducibly", async () => {
    const inputs = prompt();
    const promptLength = inputs.input_ids.dims[1]!;
    const options = { ...inputs, max_new_tokens: 24, min_new_tokens: 24, do_sample: false };
    const first = (await model.generate(options)) as Tensor;
    const second = (await model.generate(options)) as Tensor;
    expect(first.dims).toEqual([1, promptLength + 24]);
    expect(second.tolist()).toEqual(first.tolist());
    const generated = (first.tolist() as bigint[][])[0]!.slice(promptLength);
    expect(generated.every((token) => token >= 0n && token < BigInt(TINY_QWEN3_SHAPE.vocabSize))).toBe(true);
  });

  it("samples varied text with Qwen3's generation config (what a Stop test watches stream)", async () => {
    const inputs = prompt();
    const sequence = (await model.generate({ ...inputs, max_new_tokens: 24, min_new_tokens: 24 })) as Tensor;
    const generated = (sequence.tolist() as bigint[][])[0]!.slice(inputs.input_ids.dims[1]!);
    expect(new Set(generated).size).toBeGreaterThan(8);
  });

  it("gives the same tokens through the KV cache as one uncached pass over the whole sequence", async () => {
    const inputs = prompt();
    const promptLength = inputs.input_ids.dims[1]!;
    const sequence = (await model.generate({ ...inputs, max_new_tokens: 8, min_new_tokens: 8, do_sample: false })) as Tensor;
    const tokens = (sequence.tolist() as bigint[][])[0]!;
    const uncached = (await model(ids(tokens))) as Logits;
    expect(uncached.logits.dims).toEqual([1, tokens.length, TINY_QWEN3_SHAPE.vocabSize]);
    for (let position = promptLength - 1; position < tokens.length - 1; position++) {
      expect(BigInt(argmax(row(uncached.logits, position)))).toBe(tokens[position + 1]);
    }
  });

  it("computes the same logits for a step from the cache as from scratch", async () => {
    const tokens = (prompt().input_ids.tolist() as bigint[][])[0]!;
    const [head, next] = [tokens.slice(0, -1), tokens.at(-1)!];
    const first = (await model(ids(head))) as Logits;
    const cache = Object.fromEntries(
      Object.entries(first)
        .filter(([name]) => name.startsWith("present."))
        .map(([name, tensor]) => [name.replace("present.", "past_key_values."), tensor]),
    );
    expect(Object.keys(cache)).toHaveLength(2 * TINY_QWEN3_SHAPE.layers);
    expect(cache["past_key_values.0.key"]!.dims).toEqual([1, TINY_QWEN3_SHAPE.keyValueHeads, head.length, TINY_QWEN3_SHAPE.headDim]);
    const step = (await model({
      input_ids: new Tensor("int64", BigInt64Array.of(next), [1, 1]),
      attention_mask: ids(tokens).attention_mask,
      past_key_values: cache,
    })) as Logits;
    const full = (await model(ids(tokens))) as Logits;
    const cached = row(step.logits, 0);
    const scratch = row(full.logits, tokens.length - 1);
    let largest = 0;
    for (let index = 0; index < cached.length; index++) largest = Math.max(largest, Math.abs(cached[index]! - scratch[index]!));
    expect(largest).toBeLessThan(1e-4);
  });
});
