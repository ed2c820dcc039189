import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoModelForCausalLM, AutoTokenizer, env, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "./ensure-test-model.js";
import { formatToolCall } from "./format-tool-call.js";
import { DEFAULT_SCRIPTED_ANSWER, scriptedModel } from "./scripted-model.js";

// The two-step tool loop on the real engine: transformers.js in Node, the
// real Qwen3 tokenizer and chat template, generate() with its KV cache.
let root: string;
const models = new Map<string, { model: PreTrainedModel; tokenizer: PreTrainedTokenizer }>();

const tools = [
  {
    type: "function",
    function: {
      name: "add_to_cart",
      description: "Adds a product to the cart.",
      parameters: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    },
  },
];
const REFUSAL = "I stopped there: that step was not allowed or failed, so nothing was ordered.";
const CALL = '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks"}}\n</tool_call>';

type Message = { role: string; content: string; tool_calls?: unknown[] };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "scripted-model-"));
  const definitions = [
    scriptedModel(),
    scriptedModel({
      id: "scripted-two-steps",
      replies: [
        `<think>\nThe cart first.\n</think>\n\n${formatToolCall({ name: "view_cart", arguments: {} })}`,
        `${formatToolCall({ name: "add_to_cart", arguments: { sku: "hat", quantity: 2 } })}\n${formatToolCall({ name: "checkout", arguments: { express: true } })}`,
        "Done: two hats, checked out.",
      ],
      // One model for the longer script and the refusal: a build and a load fewer.
      refusal: REFUSAL,
    }),
  ];
  env.allowRemoteModels = false;
  env.localModelPath = `${root}/`;
  for (const definition of definitions) {
    await ensureTestModel(definition, { root });
    models.set(definition.id, {
      model: await AutoModelForCausalLM.from_pretrained(definition.id, { dtype: "fp32" }),
      tokenizer: await AutoTokenizer.from_pretrained(definition.id),
    });
  }
});

afterAll(async () => {
  for (const { model } of models.values()) await model.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** Templates `messages` with the tools, generates, and decodes the new tokens. */
async function reply(
  messages: Message[],
  options: { id?: string; enable_thinking?: boolean; do_sample?: boolean } = {},
): Promise<{ text: string; raw: string; promptText: string }> {
  const { model, tokenizer } = models.get(options.id ?? "scripted")!;
  const templateOptions = { tools, add_generation_prompt: true, ...(options.enable_thinking === false ? { enable_thinking: false } : {}) };
  const inputs = tokenizer.apply_chat_template(messages, { ...templateOptions, return_dict: true }) as unknown as {
    input_ids: Tensor;
    attention_mask: Tensor;
  };
  const promptText = tokenizer.apply_chat_template(messages, { ...templateOptions, tokenize: false }) as string;
  const output = (await model.generate({ ...inputs, max_new_tokens: 80, ...(options.do_sample === false ? { do_sample: false } : {}) })) as Tensor;
  const generated = (output.tolist() as bigint[][])[0]!.slice(inputs.input_ids.dims[1]!);
  return {
    text: tokenizer.decode(generated, { skip_special_tokens: true }),
    raw: tokenizer.decode(generated, { skip_special_tokens: false }),
    promptText,
  };
}

/** An assistant message with these tool calls (`[name, arguments]` pairs), as the engine records it. */
function callMessage(...calls: [string, Record<string, unknown>][]): Message {
  return { role: "assistant", content: "", tool_calls: calls.map(([name, args]) => ({ type: "function", function: { name, arguments: args } })) };
}

describe("scripted", () => {
  it("calls the tool, then answers from the tool result: the two-step loop through the chat template", async () => {
    const messages: Message[] = [{ role: "user", content: "Please add socks to my cart." }];
    const first = await reply(messages);
    expect(first.promptText).not.toContain("<tool_response>");
    expect(first.text).toBe(CALL);
    expect(first.raw).toBe(`${CALL}<|im_end|>`);

    messages.push(callMessage(["add_to_cart", { sku: "socks" }]), { role: "tool", content: '{"ok": true, "items": 3}' });
    const second = await reply(messages);
    expect(second.promptText).toContain("<tool_response>");
    expect(second.text).toBe(DEFAULT_SCRIPTED_ANSWER);
    expect(second.raw).toBe(`${DEFAULT_SCRIPTED_ANSWER}<|im_end|>`);
  });

  it("replays exactly under sampling (Qwen3's generation config) and greedily", async () => {
    const messages: Message[] = [{ role: "user", content: "socks" }];
    for (let attempt = 0; attempt < 3; attempt++) expect((await reply(messages)).text).toBe(CALL);
    expect((await reply(messages, { do_sample: false })).text).toBe(CALL);
  });

  it("works when the template closes an empty thinking block (enable_thinking: false)", async () => {
    const messages: Message[] = [{ role: "user", content: "Add socks." }];
    const first = await reply(messages, { enable_thinking: false });
    expect(first.promptText.endsWith("<think>\n\n</think>\n\n")).toBe(true);
    expect(first.text).toBe(CALL);
    messages.push(callMessage(["add_to_cart", { sku: "socks" }]), { role: "tool", content: "ok" });
    expect((await reply(messages, { enable_thinking: false })).text).toBe(DEFAULT_SCRIPTED_ANSWER);
  });

  it("starts over at the tool call on the next user message, after an earlier tool response", async () => {
    const messages: Message[] = [
      { role: "system", content: "About this site: a sock shop." },
      { role: "user", content: "Add socks." },
      callMessage(["add_to_cart", { sku: "socks" }]),
      { role: "tool", content: "ok" },
      { role: "assistant", content: DEFAULT_SCRIPTED_ANSWER },
      { role: "user", content: "Add socks again." },
    ];
    const again = await reply(messages);
    expect(again.promptText).toContain("<tool_response>");
    expect(again.text).toBe(CALL);
  });

  it("with a refusal, answers it instead of the script once a tool result is an error, and claims nothing", async () => {
    const id = "scripted-two-steps";
    const VIEW_CART = '<think>\nThe cart first.\n</think>\n\n<tool_call>\n{"name": "view_cart", "arguments": {}}\n</tool_call>';
    // The person's Don't allow on the first call: the refusal, not the next call.
    const declined: Message[] = [
      { role: "user", content: "Buy two hats." },
      callMessage(["view_cart", {}]),
      { role: "tool", content: "Error [declined]: The person declined view_cart." },
    ];
    expect((await reply(declined, { id })).text).toBe(REFUSAL);
    // A call that failed later in the turn: the refusal, not "checked out".
    const failed: Message[] = [
      { role: "user", content: "Buy two hats." },
      callMessage(["view_cart", {}]),
      { role: "tool", content: "empty" },
      callMessage(["add_to_cart", { sku: "hat", quantity: 2 }], ["checkout", { express: true }]),
      { role: "tool", content: "added" },
      { role: "tool", content: "Error [timeout]: checkout took too long." },
    ];
    expect((await reply(failed, { id })).text).toBe(REFUSAL);
    // The next user message starts the script over.
    declined.push({ role: "assistant", content: REFUSAL }, { role: "user", content: "Try again." });
    expect((await reply(declined, { id })).text).toBe(VIEW_CART);
  });

  it("follows a longer script: one reply per tool-result turn, several calls in one reply, a think block", async () => {
    const id = "scripted-two-steps";
    const messages: Message[] = [{ role: "user", content: "Buy two hats." }];
    const first = await reply(messages, { id });
    expect(first.text).toBe('<think>\nThe cart first.\n</think>\n\n<tool_call>\n{"name": "view_cart", "arguments": {}}\n</tool_call>');
    messages.push(callMessage(["view_cart", {}]), { role: "tool", content: "empty" });
    const second = await reply(messages, { id });
    expect(second.text).toBe(
      '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "hat", "quantity": 2}}\n</tool_call>\n<tool_call>\n{"name": "checkout", "arguments": {"express": true}}\n</tool_call>',
    );
    // Two parallel results render as one tool turn: the script moves one step.
    messages.push(
      callMessage(["add_to_cart", { sku: "hat", quantity: 2 }], ["checkout", { express: true }]),
      { role: "tool", content: "added" },
      { role: "tool", content: "paid" },
    );
    expect((await reply(messages, { id })).text).toBe("Done: two hats, checked out.");
    // Past the script's end the last reply repeats.
    messages.push({ role: "assistant", content: "Done: two hats, checked out." }, { role: "tool", content: "late result" });
    expect((await reply(messages, { id })).text).toBe("Done: two hats, checked out.");
  });

  it("gives the same logits at every position with and without the KV cache", async () => {
    const { model, tokenizer } = models.get("scripted")!;
    const messages: Message[] = [{ role: "user", content: "Add socks." }];
    // No tool list: a short prompt keeps the uncached pass's [1, seq, 151936] logits small.
    const inputs = tokenizer.apply_chat_template(messages, { add_generation_prompt: true, return_dict: true }) as unknown as { input_ids: Tensor };
    const sequence = ((await model.generate({ ...inputs, max_new_tokens: 40 })) as Tensor).tolist() as bigint[][];
    const tokens = sequence[0]!;
    const tensor = (values: bigint[]): Tensor => new Tensor("int64", BigInt64Array.from(values), [1, values.length]);
    const ones = (length: number): Tensor => new Tensor("int64", new BigInt64Array(length).fill(1n), [1, length]);
    const full = (await model({ input_ids: tensor(tokens), attention_mask: ones(tokens.length) })) as Record<string, Tensor>;
    // Replay the sequence a token at a time through the cache; every step's logits must match the full pass.
    const split = inputs.input_ids.dims[1]! - 4;
    let outputs = (await model({ input_ids: tensor(tokens.slice(0, split)), attention_mask: ones(split) })) as Record<string, Tensor>;
    const vocab = full.logits!.dims[2]!;
    const fullLogits = full.logits!.data as Float32Array;
    for (let position = split; position < tokens.length; position++) {
      const cache = { "past_key_values.0.key": outputs["present.0.key"]!, "past_key_values.0.value": outputs["present.0.value"]! };
      outputs = (await model({ input_ids: tensor([tokens[position]!]), attention_mask: ones(position + 1), past_key_values: cache })) as Record<string, Tensor>;
      const step = outputs.logits!.data as Float32Array;
      const expected = fullLogits.subarray(position * vocab, (position + 1) * vocab);
      let differing = 0;
      for (let index = 0; index < vocab; index++) if (step[index] !== expected[index]) differing++;
      expect(differing, `position ${position}`).toBe(0);
    }
  });
});
