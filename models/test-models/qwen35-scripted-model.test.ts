import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoModelForCausalLM, AutoTokenizer, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "./ensure-test-model.js";
import { formatXmlParameterValue, formatXmlToolCall } from "./format-xml-tool-call.js";
import {
  DEFAULT_QWEN35_ANSWER,
  DEFAULT_QWEN35_INVALID_CALL,
  DEFAULT_QWEN35_REASONING,
  DEFAULT_QWEN35_TOOL_CALL,
  qwen35ScriptedModel,
  qwen35ScriptedReplies,
} from "./qwen35-scripted-model.js";
import { QWEN35_CHAT_TEMPLATE } from "./qwen35-chat-template.js";
import { createHash } from "node:crypto";

// Qwen3.5's format on the real engine: its chat template (through
// transformers.js's tokenizer.apply_chat_template) and scripted XML replies
// through generate() with the KV cache.
let root: string;
const models = new Map<string, { model: PreTrainedModel; tokenizer: PreTrainedTokenizer }>();

const tools = [
  {
    type: "function",
    function: {
      name: "add_to_cart",
      description: "Adds a product to the cart.",
      parameters: {
        type: "object",
        properties: { sku: { type: "string" }, quantity: { type: "integer" } },
        required: ["sku", "quantity"],
      },
    },
  },
];
const CALL = "<tool_call>\n<function=add_to_cart>\n<parameter=sku>\nsocks\n</parameter>\n<parameter=quantity>\n2\n</parameter>\n</function>\n</tool_call>";

type Message = { role: string; content: string; tool_calls?: unknown[]; reasoning_content?: string };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "qwen35-scripted-"));
  const definitions = [
    qwen35ScriptedModel(),
    qwen35ScriptedModel({ id: "qwen35-reasoning", reasoning: true }),
    qwen35ScriptedModel({ id: "qwen35-reasoning-unclosed", reasoning: { end: "tool_call" } }),
    qwen35ScriptedModel({ id: "qwen35-invalid", invalidCall: true }),
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

function render(messages: Message[], options: { id?: string; enable_thinking?: boolean } = {}): string {
  const { tokenizer } = models.get(options.id ?? "scripted-qwen35")!;
  const thinking = options.enable_thinking === undefined ? {} : { enable_thinking: options.enable_thinking };
  return tokenizer.apply_chat_template(messages, { tools, add_generation_prompt: true, tokenize: false, ...thinking }) as string;
}

/** Templates `messages` with the tools, generates, and decodes the new tokens. */
async function reply(messages: Message[], options: { id?: string; enable_thinking?: boolean; do_sample?: boolean } = {}): Promise<{ text: string; raw: string; promptText: string }> {
  const { model, tokenizer } = models.get(options.id ?? "scripted-qwen35")!;
  const thinking = options.enable_thinking === undefined ? {} : { enable_thinking: options.enable_thinking };
  const inputs = tokenizer.apply_chat_template(messages, { tools, add_generation_prompt: true, return_dict: true, ...thinking }) as unknown as { input_ids: Tensor; attention_mask: Tensor };
  const output = (await model.generate({ ...inputs, max_new_tokens: 120, ...(options.do_sample === false ? { do_sample: false } : {}) })) as Tensor;
  const generated = (output.tolist() as bigint[][])[0]!.slice(inputs.input_ids.dims[1]!);
  return {
    text: tokenizer.decode(generated, { skip_special_tokens: true }),
    raw: tokenizer.decode(generated, { skip_special_tokens: false }),
    promptText: render(messages, options),
  };
}

function callMessage(args: Record<string, unknown>, extra: Partial<Message> = {}): Message {
  return { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "add_to_cart", arguments: args } }], ...extra };
}

describe("Qwen3.5's chat template in tokenizer_config.json", () => {
  it("is the 0.8B's shipped template, byte for byte", () => {
    expect(QWEN35_CHAT_TEMPLATE.length).toBe(7755);
    expect(createHash("sha256").update(QWEN35_CHAT_TEMPLATE).digest("hex")).toBe("273d8e0e683b885071fb17e08d71e5f2a5ddfb5309756181681de4f5a1822d80");
  });

  it("renders tools, a past XML call with typed parameters and grouped tool responses, as the formatter writes calls", () => {
    const messages: Message[] = [
      { role: "system", content: "You shop for the user." },
      { role: "user", content: "Two pairs of socks, please." },
      callMessage({ sku: "socks", quantity: 2 }),
      { role: "tool", content: '{"ok": true}' },
      { role: "tool", content: '{"items": 2}' },
    ];
    const text = render(messages);
    expect(text.startsWith("<|im_start|>system\n# Tools\n\nYou have access to the following functions:\n\n<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"add_to_cart\"")).toBe(true);
    expect(text).toContain("</IMPORTANT>\n\nYou shop for the user.<|im_end|>\n<|im_start|>user\nTwo pairs of socks, please.<|im_end|>\n");
    // After the last user query: an (empty) think block, then the call as formatXmlToolCall writes it.
    expect(text).toContain(`<|im_start|>assistant\n<think>\n\n</think>\n\n${formatXmlToolCall(DEFAULT_QWEN35_TOOL_CALL)}<|im_end|>\n`);
    expect(text.endsWith('<|im_start|>user\n<tool_response>\n{"ok": true}\n</tool_response>\n<tool_response>\n{"items": 2}\n</tool_response><|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
    expect(render(messages, { enable_thinking: true }).endsWith("</tool_response><|im_end|>\n<|im_start|>assistant\n<think>\n")).toBe(true);
  });

  it("renders every kind of value as formatXmlToolCall does: mappings and lists as JSON, the rest as text", () => {
    const args = { query: "wool socks\nsize 42", count: 3, price: 9.5, gift: true, filters: { color: "red", sizes: [41, 42] }, tags: ["a", "b"] };
    const call = { name: "search", arguments: args };
    const text = render([{ role: "user", content: "Find socks." }, { role: "assistant", content: "Searching.", tool_calls: [{ type: "function", function: call }] }, { role: "tool", content: "[]" }]);
    expect(text).toContain(`Searching.\n\n${formatXmlToolCall(call)}<|im_end|>`);
    expect(formatXmlParameterValue({ color: "red", sizes: [41, 42] })).toBe('{"color": "red", "sizes": [41, 42]}');
    expect(formatXmlParameterValue(true)).toBe("true");
    expect(formatXmlToolCall(DEFAULT_QWEN35_TOOL_CALL)).toBe(CALL);
  });
});

describe("qwen35ScriptedModel", () => {
  it("calls add_to_cart in XML with typed parameters, then answers from the tool result (thinking off, the default)", async () => {
    const messages: Message[] = [{ role: "user", content: "Add two pairs of socks." }];
    const first = await reply(messages);
    expect(first.promptText.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    expect(first.text).toBe(CALL);
    expect(first.raw).toBe(`${CALL}<|im_end|>`);
    messages.push(callMessage({ sku: "socks", quantity: 2 }), { role: "tool", content: '{"ok": true}' });
    const second = await reply(messages);
    expect(second.text).toBe(DEFAULT_QWEN35_ANSWER);
    expect(second.raw).toBe(`${DEFAULT_QWEN35_ANSWER}<|im_end|>`);
  });

  it("replays exactly with thinking on (the prompt ends in <think>\\n), under sampling and greedily", async () => {
    const messages: Message[] = [{ role: "user", content: "socks" }];
    for (let attempt = 0; attempt < 2; attempt++) expect((await reply(messages, { enable_thinking: true })).text).toBe(CALL);
    expect((await reply(messages, { enable_thinking: true, do_sample: false })).text).toBe(CALL);
    messages.push(callMessage({ sku: "socks", quantity: 2 }), { role: "tool", content: "ok" });
    expect((await reply(messages, { enable_thinking: true })).text).toBe(DEFAULT_QWEN35_ANSWER);
  });

  it("starts inside reasoning and closes it with </think> (thinking on)", async () => {
    const id = "qwen35-reasoning";
    const messages: Message[] = [{ role: "user", content: "Add two pairs of socks." }];
    const first = await reply(messages, { id, enable_thinking: true });
    expect(first.promptText.endsWith("<|im_start|>assistant\n<think>\n")).toBe(true);
    expect(first.text).toBe(`${DEFAULT_QWEN35_REASONING.call}\n</think>\n\n${CALL}`);
    messages.push(callMessage({ sku: "socks", quantity: 2 }, { reasoning_content: DEFAULT_QWEN35_REASONING.call }), { role: "tool", content: "ok" });
    const second = await reply(messages, { id, enable_thinking: true });
    expect(second.promptText).toContain(`<|im_start|>assistant\n<think>\n${DEFAULT_QWEN35_REASONING.call}\n</think>\n\n${CALL}<|im_end|>`);
    expect(second.text).toBe(`${DEFAULT_QWEN35_REASONING.answer}\n</think>\n\n${DEFAULT_QWEN35_ANSWER}`);
  });

  it("can open the <tool_call> inside unclosed reasoning", async () => {
    const first = await reply([{ role: "user", content: "Add two pairs of socks." }], { id: "qwen35-reasoning-unclosed", enable_thinking: true });
    expect(first.text).toBe(`${DEFAULT_QWEN35_REASONING.call}\n\n${CALL}`);
    expect(first.text).not.toContain("</think>");
  });

  it("emits an invalid call first, then the valid call once the error comes back as a tool result, then answers", async () => {
    const id = "qwen35-invalid";
    const messages: Message[] = [{ role: "user", content: "Add two pairs of socks." }];
    expect((await reply(messages, { id })).text).toBe(DEFAULT_QWEN35_INVALID_CALL);
    messages.push({ role: "assistant", content: DEFAULT_QWEN35_INVALID_CALL }, { role: "tool", content: "Error: the call must start with <function=NAME>" });
    expect((await reply(messages, { id })).text).toBe(CALL);
    messages.push(callMessage({ sku: "socks", quantity: 2 }), { role: "tool", content: '{"ok": true}' });
    expect((await reply(messages, { id })).text).toBe(DEFAULT_QWEN35_ANSWER);
  });

  it("builds its script from the options", () => {
    expect(qwen35ScriptedReplies()).toEqual([CALL, DEFAULT_QWEN35_ANSWER]);
    expect(qwen35ScriptedReplies({ reasoning: { call: "Why.", end: "tool_call" }, invalidCall: "<tool_call>\n</tool_call>", answer: "Done." })).toEqual([
      "Why.\n\n<tool_call>\n</tool_call>",
      `${DEFAULT_QWEN35_REASONING.retry}\n\n${CALL}`,
      `${DEFAULT_QWEN35_REASONING.answer}\n</think>\n\nDone.`,
    ]);
  });
});
