import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoModelForCausalLM, AutoTokenizer, env, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "./ensure-test-model.js";
import { buildQwen35DecoderGraph } from "./qwen35-decoder-graph.js";
import { QWEN35_0_8B_SHAPE, TINY_QWEN35_SHAPE } from "./qwen35-shape.js";
import { qwen35ShapedModel, tinyQwen35Model } from "./qwen35-shaped-model.js";
import { QWEN35_CHAT_TEMPLATE } from "./qwen35-chat-template.js";
import { totalWeightBytes, writeOnnxModel } from "./write-onnx-model.js";
import { InferenceSession, Tensor as OrtTensor } from "onnxruntime-node";
import { qwen35CacheInputs } from "./qwen35-decoder-graph.js";
import type { Qwen35DeltaNetLayout } from "./qwen35-gated-deltanet-layer.js";

// The Qwen3.5-shaped graph (Gated DeltaNet stand-in + gated attention, conv /
// recurrent / KV caches) at the tiny shape through the real transformers.js
// in Node: what it loads it as, what it feeds, and that the states carry.
let root: string;
let tokenizer: PreTrainedTokenizer;
let model: PreTrainedModel;

type Outputs = Record<string, Tensor>;
type Session = { inputNames: string[]; outputNames: string[]; run: (feeds: Record<string, Tensor>, ...rest: unknown[]) => Promise<unknown> };
const sessionOf = (target: PreTrainedModel) => (target.sessions as unknown as Record<string, Session>).model!;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "qwen35-shaped-"));
  env.allowRemoteModels = false;
  env.localModelPath = `${root}/`;
  await Promise.all([ensureTestModel(tinyQwen35Model(), { root }), ensureTestModel(qwen35ShapedModel("q8", { id: "tiny-qwen35-q8", shape: TINY_QWEN35_SHAPE }), { root })]);
  tokenizer = await AutoTokenizer.from_pretrained("tiny-qwen35");
  model = await AutoModelForCausalLM.from_pretrained("tiny-qwen35", { dtype: "fp32" });
});

afterAll(async () => {
  await model?.dispose();
  rmSync(root, { recursive: true, force: true });
});

const ids = (values: readonly bigint[]): Tensor => new Tensor("int64", BigInt64Array.from(values), [1, values.length]);
const ones = (length: number): Tensor => new Tensor("int64", new BigInt64Array(length).fill(1n), [1, length]);
/** Text positions as Qwen3.5 takes them: [3, batch, seq], the same row three times. */
const positions = (from: number, count: number): Tensor =>
  new Tensor("int64", BigInt64Array.from({ length: 3 * count }, (_, index) => BigInt(from + (index % count))), [3, 1, count]);
const allLogits = new Tensor("int64", [0n], []);

function prompt(): bigint[] {
  const inputs = tokenizer.apply_chat_template([{ role: "user", content: "Add two pairs of socks to my cart, please." }], { add_generation_prompt: true, return_dict: true }) as unknown as { input_ids: Tensor };
  return Array.from(inputs.input_ids.data as BigInt64Array);
}

/** A forward pass of `tokens` after `past` (whose length is `pastLength`). */
async function forward(tokens: bigint[], pastLength: number, past?: Record<string, Tensor>): Promise<Outputs> {
  return (await model({
    input_ids: ids(tokens),
    attention_mask: ones(pastLength + tokens.length),
    position_ids: positions(pastLength, tokens.length),
    num_logits_to_keep: allLogits,
    ...(past ? { past_key_values: past } : {}),
  })) as Outputs;
}

/** The `present*` outputs renamed as the next step's inputs (transformers.js's `getPastKeyValues`). */
function cacheOf(outputs: Outputs): Record<string, Tensor> {
  return Object.fromEntries(
    Object.entries(outputs)
      .filter(([name]) => name.startsWith("present"))
      .map(([name, tensor]) => [name.replace("present_conv", "past_conv").replace("present_recurrent", "past_recurrent").replace("present", "past_key_values"), tensor]),
  );
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

function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let index = 0; index < a.length; index++) max = Math.max(max, Math.abs(a[index]! - b[index]!));
  return max;
}

/**
 * transformers.js 4.3.2's `_get_text_only_rope_index` computes the decode
 * offset as `max + 1 + seq_len` (Hugging Face: `max + 1 - seq_len`), so every
 * Qwen3.5 decode step after a prompt of length L is fed position
 * `past + 2L`. This instance patch subtracts the 2L back.
 */
function fixTextRopeDeltas(target: PreTrainedModel): void {
  const patched = target as unknown as { _get_text_only_rope_index: (ids: Tensor, mask?: Tensor) => [Tensor, Tensor] };
  const original = patched._get_text_only_rope_index.bind(target);
  patched._get_text_only_rope_index = (inputIds, attentionMask) => {
    const [positionIds, deltas] = original(inputIds, attentionMask);
    if (!attentionMask) return [positionIds, deltas];
    const twice = BigInt(2 * attentionMask.dims[1]!);
    return [positionIds, new Tensor("int64", BigInt64Array.from(deltas.data as BigInt64Array, (delta) => delta - twice), deltas.dims)];
  };
}

describe("qwen35ShapedModel (tiny)", () => {
  it("loads as qwen3_5_text: one `model` session with conv, recurrent and KV caches, and generates", async () => {
    const config = JSON.parse(readFileSync(join(root, "tiny-qwen35", "config.json"), "utf8"));
    expect(config.model_type).toBe("qwen3_5_text");
    expect(JSON.parse(readFileSync(join(root, "tiny-qwen35", "tokenizer_config.json"), "utf8")).chat_template).toBe(QWEN35_CHAT_TEMPLATE);
    expect(model.constructor.name).toBe("Qwen3_5ForCausalLM");
    expect(Object.keys(model.sessions)).toEqual(["model"]);
    const session = sessionOf(model);
    expect(session.inputNames).toEqual([
      "input_ids",
      "attention_mask",
      "position_ids",
      "past_conv.0",
      "past_recurrent.0",
      "past_conv.1",
      "past_recurrent.1",
      "past_conv.2",
      "past_recurrent.2",
      "past_key_values.3.key",
      "past_key_values.3.value",
      "num_logits_to_keep",
    ]);
    expect(session.outputNames).toEqual([
      "logits",
      "present_conv.0",
      "present_recurrent.0",
      "present_conv.1",
      "present_recurrent.1",
      "present_conv.2",
      "present_recurrent.2",
      "present.3.key",
      "present.3.value",
    ]);

    const fed: Record<string, number[]>[] = [];
    const run = session.run;
    session.run = (feeds, ...rest) => {
      fed.push(Object.fromEntries(Object.entries(feeds).map(([name, tensor]) => [name, tensor.dims])));
      return run.call(session, feeds, ...rest);
    };
    try {
      const input = ids(prompt());
      const output = (await model.generate({ input_ids: input, attention_mask: ones(input.dims[1]!), max_new_tokens: 5, min_new_tokens: 5, do_sample: false })) as Tensor;
      expect(output.dims).toEqual([1, input.dims[1]! + 5]);
    } finally {
      session.run = run;
    }
    const length = prompt().length;
    // The first step's empty states, built from the session's input metadata:
    // the conv state holds kernel - 1 = 3 inputs, as the hub's -ONNX-OPT exports' does.
    expect(fed[0]).toMatchObject({
      input_ids: [1, length],
      position_ids: [3, 1, length],
      num_logits_to_keep: [],
      "past_conv.0": [1, 64, 3],
      "past_recurrent.0": [1, 4, 8, 8],
      "past_key_values.3.key": [1, 2, 0, 32],
    });
    expect(fed[1]).toMatchObject({ input_ids: [1, 1], attention_mask: [1, length + 1], position_ids: [3, 1, 1], "past_conv.0": [1, 64, 3], "past_key_values.3.key": [1, 2, length, 32] });
  });

  it("generates through the q8 graph (int8 MatMulInteger projections)", async () => {
    const quantized = await AutoModelForCausalLM.from_pretrained("tiny-qwen35-q8", { dtype: "q8" });
    try {
      const input = ids(prompt());
      const output = (await quantized.generate({ input_ids: input, attention_mask: ones(input.dims[1]!), max_new_tokens: 4, min_new_tokens: 4, do_sample: false })) as Tensor;
      expect(output.dims).toEqual([1, input.dims[1]! + 4]);
    } finally {
      await quantized.dispose();
    }
  });

  it("carries its states: each cached step gives the logits of a pass from scratch", async () => {
    const tokens = [...prompt(), 9707n, 11n, 1879n, 0n, 13n, 576n, 3838n];
    const full = await forward(tokens, 0);
    const split = tokens.length - 8;
    let outputs = await forward(tokens.slice(0, split), 0);
    for (let position = split; position < tokens.length; position++) {
      expect(maxDifference(row(outputs.logits!, outputs.logits!.dims[1]! - 1), row(full.logits!, position - 1)), `position ${position - 1}`).toBeLessThan(1e-4);
      outputs = await forward([tokens[position]!], position, cacheOf(outputs));
    }
    expect(maxDifference(row(outputs.logits!, 0), row(full.logits!, tokens.length - 1))).toBeLessThan(1e-4);
  });

  it("reads earlier tokens through the conv and recurrent states: zeroing either changes the next logits", async () => {
    const tokens = prompt();
    const before = await forward(tokens.slice(0, -1), 0);
    const next = [tokens.at(-1)!];
    const cache = cacheOf(before);
    const reference = row((await forward(next, tokens.length - 1, cache)).logits!, 0);
    const zeroed = (prefix: string) =>
      Object.fromEntries(Object.entries(cache).map(([name, tensor]) => [name, name.startsWith(prefix) ? new Tensor("float32", new Float32Array(tensor.size), tensor.dims) : tensor]));
    for (const prefix of ["past_conv.", "past_recurrent."]) {
      const changed = row((await forward(next, tokens.length - 1, zeroed(prefix))).logits!, 0);
      expect(maxDifference(changed, reference), prefix).toBeGreaterThan(1e-3);
    }
  });

  it("greedy generate() with its states equals greedy decoding from scratch (with the 4.3.2 position fix)", async () => {
    const start = prompt();
    const seen: bigint[] = [];
    const session = sessionOf(model);
    const run = session.run;
    session.run = (feeds, ...rest) => {
      seen.push((feeds.position_ids!.data as BigInt64Array)[0]!);
      return run.call(session, feeds, ...rest);
    };
    try {
      // The quirk itself: the first decode step is fed position 3L, not L.
      await model.generate({ input_ids: ids(start), attention_mask: ones(start.length), max_new_tokens: 2, min_new_tokens: 2, do_sample: false });
      expect(seen[1]).toBe(BigInt(3 * start.length));
    } finally {
      session.run = run;
    }

    const fixed = await AutoModelForCausalLM.from_pretrained("tiny-qwen35", { dtype: "fp32" });
    try {
      fixTextRopeDeltas(fixed);
      const steps = 8;
      const generated = (await fixed.generate({ input_ids: ids(start), attention_mask: ones(start.length), max_new_tokens: steps, min_new_tokens: steps, do_sample: false })) as Tensor;
      const cached = Array.from(generated.data as BigInt64Array).slice(start.length);
      const scratch: bigint[] = [];
      for (let step = 0; step < steps; step++) {
        const sequence = [...start, ...scratch];
        const logits = (await forward(sequence, 0)).logits!;
        scratch.push(BigInt(argmax(row(logits, sequence.length - 1))));
      }
      expect(cached).toEqual(scratch);
    } finally {
      await fixed.dispose();
    }
  });
});

describe("qwen35ShapedModel (0.8B shapes)", () => {
  it("declares Qwen3.5-0.8B's cache shapes and sizes without building", () => {
    const definition = qwen35ShapedModel("q8");
    expect(definition.id).toBe("qwen35-0.8b-shaped-q8");
    expect(definition.shape).toBe(QWEN35_0_8B_SHAPE);
    const graph = buildQwen35DecoderGraph({ shape: QWEN35_0_8B_SHAPE, format: "q8" });
    const dims = (name: string) =>
      graph.inputs.find((input) => input.name === name)!.type!.tensorType!.shape!.dim!.map((dim) => (dim.dimParam ? dim.dimParam : Number(dim.dimValue)));
    expect(dims("position_ids")).toEqual([3, "batch_size", "sequence_length"]);
    expect(dims("past_conv.0")).toEqual(["batch_size", 6144, 3]);
    expect(dims("past_recurrent.0")).toEqual(["batch_size", 16, 128, 128]);
    expect(dims("past_key_values.3.key")).toEqual(["batch_size", 2, "past_sequence_length", 256]);
    expect(graph.inputs.filter((input) => input.name!.startsWith("past_key_values.")).map((input) => input.name)).toHaveLength(12);
    expect(graph.inputs.filter((input) => input.name!.startsWith("past_recurrent.")).map((input) => input.name)).toHaveLength(18);
    expect(totalWeightBytes(graph)).toBe(810_774_517);
  });

  it("writes its gated-DeltaNet layers as -ONNX-OPT does: LinearAttention and CausalConvWithState, no Scan; the old layouts on request", () => {
    const count = (layout: "opt" | "scan" | "closed-form") => {
      const graph = buildQwen35DecoderGraph({ shape: QWEN35_0_8B_SHAPE, format: "q8", deltaNet: layout });
      const counts = (type: string) => graph.nodes.filter((node) => node.opType === type).length;
      return { scan: counts("Scan"), linearAttention: counts("LinearAttention"), causalConv: counts("CausalConvWithState") };
    };
    // 18 of the 0.8B's 24 layers are gated DeltaNet.
    expect(count("opt")).toEqual({ scan: 0, linearAttention: 18, causalConv: 18 });
    expect(count("scan")).toEqual({ scan: 18, linearAttention: 0, causalConv: 0 });
    expect(count("closed-form")).toEqual({ scan: 0, linearAttention: 0, causalConv: 0 });
    expect(buildQwen35DecoderGraph({ shape: QWEN35_0_8B_SHAPE, format: "q8", deltaNet: "scan" }).inputs.find((input) => input.name === "past_conv.0")!.type!.tensorType!.shape!.dim![2]!.dimValue).toBe(4);
  });
});

describe("the gated-DeltaNet layouts (tiny shape, same weights)", () => {
  /** Logits at every position and the first layer's recurrent state after `tokens` from empty caches, through onnxruntime-node. */
  async function prefill(layout: Qwen35DeltaNetLayout, tokens: number[]): Promise<{ logits: Float32Array; state: Float32Array }> {
    const path = join(root, `layouts-${layout}.onnx`);
    writeOnnxModel(buildQwen35DecoderGraph({ shape: TINY_QWEN35_SHAPE, deltaNet: layout, seed: 3 }), { path, externalData: false });
    const session = await InferenceSession.create(path);
    const int64 = (values: number[], dims: number[]) => new OrtTensor("int64", BigInt64Array.from(values, BigInt), dims);
    const feeds: Record<string, OrtTensor> = {
      input_ids: int64(tokens, [1, tokens.length]),
      attention_mask: int64(tokens.map(() => 1), [1, tokens.length]),
      position_ids: int64([0, 1, 2].flatMap(() => tokens.map((_, index) => index)), [3, 1, tokens.length]),
      num_logits_to_keep: int64([0], []),
    };
    for (const { name, dims } of qwen35CacheInputs(TINY_QWEN35_SHAPE, layout)) {
      const resolved = dims.map((dim) => (dim === "batch_size" ? 1 : typeof dim === "string" ? 0 : dim));
      feeds[name] = new OrtTensor("float32", new Float32Array(resolved.reduce((product, dim) => product * dim, 1)), resolved);
    }
    const outputs = await session.run(feeds);
    await session.release();
    return { logits: outputs.logits!.data as Float32Array, state: outputs["present_recurrent.0"]!.data as Float32Array };
  }
  const largestDifference = (left: Float32Array, right: Float32Array) => left.reduce((largest, value, index) => Math.max(largest, Math.abs(value - right[index]!)), 0);

  it("-OPT's LinearAttention (gated_delta) gives what the Scan over positions gives; the closed form's simpler rule differs", async () => {
    const tokens = [151_644, 872, 198, 2_610, 525, 264, 10_950, 17_847, 13, 151_645];
    const [opt, scan, closedForm] = await Promise.all([prefill("opt", tokens), prefill("scan", tokens), prefill("closed-form", tokens)]);
    expect(opt.logits).toHaveLength(tokens.length * TINY_QWEN35_SHAPE.vocabSize);
    expect(largestDifference(opt.state, scan.state)).toBeLessThan(1e-4);
    expect(largestDifference(opt.logits, scan.logits)).toBeLessThan(1e-3);
    // Without the delta term the state differs: the comparison above can fail.
    expect(largestDifference(opt.state, closedForm.state)).toBeGreaterThan(1e-3);
  });
});
