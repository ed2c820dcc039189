import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, tinyModel, tinyQwen35Model } from "../models/test-models/index.js";
import type { RawEngineEvent, GenerateRequest, GenerationUsage, ModelSource } from "./protocol.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";
import { TransformersEngine } from "./transformers-engine.js";

// Prefix reuse across agent steps on both cache kinds, through the real
// transformers.js in Node: tiny Qwen3 (KV only: cut to the common prefix) and
// tiny Qwen3.5 (conv and recurrent states beside a KV cache: a snapshot at the
// prompt boundary, reused only when the next prompt extends it). Greedy
// output must be the same with reuse as without.

const tools = [
  {
    name: "add_to_cart",
    description: "Adds a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" }, quantity: { type: "integer" } }, required: ["sku"] },
  },
];

const models: Record<string, ModelSource> = {
  qwen3: testModelSource("tiny"),
  "qwen3.5": testModelSource("tiny-qwen35", { format: "qwen3.5" }),
};

const textOf = (events: RawEngineEvent[]) => events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");
const usageOf = (events: RawEngineEvent[]): GenerationUsage => events.flatMap((event) => (event.type === "usage" ? [event.usage] : []))[0]!;

let localModelPath: string;

beforeAll(async () => {
  const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
  localModelPath = `${dirname(tiny.folder)}/`;
}, 120_000);

/** A two-step tool loop: prompt, reply (a call), tool result, second prompt. */
const step1: GenerateRequest["messages"] = [
  { role: "system", content: "You are the assistant on this website. Use the site's tools." },
  { role: "user", content: "Add two pairs of socks to my cart, please." },
];
const step2: GenerateRequest["messages"] = [
  ...step1,
  { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "add_to_cart", arguments: { sku: "socks", quantity: 2 } } }] },
  { role: "tool", content: '{"ok":true,"cart":["socks x2"]}' },
];
const step3: GenerateRequest["messages"] = [...step2, { role: "assistant", content: "Done." }, { role: "user", content: "And a red hat." }];

describe.each(["qwen3", "qwen3.5"] as const)("prefix reuse across agent steps (tiny %s)", (format) => {
  const model = models[format]!;
  let engine: TransformersEngine;
  const ask = (conversationId: string, messages: GenerateRequest["messages"], options: Partial<GenerateRequest> = {}, on = engine) => {
    const events: RawEngineEvent[] = [];
    return on
      .generate({ id: `${conversationId}-${messages.length}`, model, conversationId, messages, tools, maxNewTokens: 12, temperature: 0, ...options }, (event) => events.push(event), new AbortController().signal)
      .then(() => events);
  };

  beforeAll(() => {
    engine = new TransformersEngine({ localModelPath });
  });

  it("a tool loop's second step reuses the first step's cache and answers as a fresh prefill does", async () => {
    const first = await ask("loop", step1);
    expect(usageOf(first).cachedPromptTokens).toBe(0);
    const reused = await ask("loop", step2);
    const fresh = await ask("loop-fresh", step2);
    const freshEngine = await ask("loop", step2, {}, new TransformersEngine({ localModelPath }));

    expect(usageOf(fresh).cachedPromptTokens).toBe(0);
    expect(usageOf(freshEngine).cachedPromptTokens).toBe(0);
    expect(usageOf(reused).promptTokens).toBe(usageOf(fresh).promptTokens);
    // Qwen3: the common prefix (its template drops the past turn's empty think block);
    // Qwen3.5: the whole snapshot, every prompt token of step 1 but the last.
    if (format === "qwen3.5") expect(usageOf(reused).cachedPromptTokens).toBe(usageOf(first).promptTokens - 1);
    else expect(usageOf(reused).cachedPromptTokens).toBeGreaterThan(usageOf(first).promptTokens - 10);
    expect(usageOf(reused).cachedPromptTokens).toBeLessThan(usageOf(reused).promptTokens);
    expect(textOf(fresh)).not.toBe("");
    expect(textOf(reused)).toBe(textOf(fresh));
    expect(textOf(freshEngine)).toBe(textOf(fresh));
    expect(usageOf(reused).outputTokens).toBe(usageOf(fresh).outputTokens);

    // A new user turn: Qwen3.5's template re-renders the earlier assistant turn without its
    // think block once a later user message exists, so the prompt no longer extends the
    // boundary snapshot; it extends the state kept at the start of the turn's reply, after
    // step 1's `<|im_start|>assistant\n` (all of step 1's prompt but its empty think block).
    // A KV cache is cut back to about the same place.
    const third = await ask("loop", step3);
    const thirdFresh = await ask("loop-fresh-3", step3);
    expect(usageOf(third).cachedPromptTokens).toBeGreaterThan(usageOf(first).promptTokens - 10);
    if (format === "qwen3.5") expect(usageOf(third).cachedPromptTokens).toBeLessThan(usageOf(first).promptTokens);
    expect(textOf(third)).toBe(textOf(thirdFresh));
    // And the turn after it again, from the second turn's start.
    const step4: GenerateRequest["messages"] = [...step3, { role: "assistant", content: "Added." }, { role: "user", content: "Thanks." }];
    const fourth = await ask("loop", step4);
    const fourthFresh = await ask("loop-fresh-4", step4);
    expect(usageOf(fourth).cachedPromptTokens).toBeGreaterThan(usageOf(third).promptTokens - 10);
    expect(textOf(fourth)).toBe(textOf(fourthFresh));
  }, 120_000);

  it("with thinking on, the second step still reuses the first's cache, and answers the same", async () => {
    const first = await ask("think", step1, { enableThinking: true });
    const reused = await ask("think", step2, { enableThinking: true });
    const fresh = await ask("think-fresh", step2, { enableThinking: true });
    expect(usageOf(reused).cachedPromptTokens).toBeGreaterThan(usageOf(first).promptTokens - 10);
    if (format === "qwen3.5") expect(usageOf(reused).cachedPromptTokens).toBe(usageOf(first).promptTokens - 1);
    expect(textOf(reused)).toBe(textOf(fresh));
  }, 120_000);

  it("a prompt that changes an earlier turn is cut back (KV) or prefilled from scratch (hybrid), answering as a fresh prefill does", async () => {
    await ask("edit", step2);
    const edited: GenerateRequest["messages"] = [step1[0]!, { role: "user", content: "Add three pairs of socks to my cart, please." }];
    const reused = await ask("edit", edited);
    const fresh = await ask("edit-fresh", edited);
    // Both share the system turn; only a KV cache can be cut back to it.
    if (format === "qwen3.5") expect(usageOf(reused).cachedPromptTokens).toBe(0);
    else expect(usageOf(reused).cachedPromptTokens).toBeGreaterThan(10);
    expect(textOf(reused)).toBe(textOf(fresh));

    // The same prompt again: a snapshot never covers the last prompt token, so it is reused.
    const again = await ask("edit", edited);
    expect(usageOf(again).cachedPromptTokens).toBe(usageOf(again).promptTokens - 1);
    expect(textOf(again)).toBe(textOf(fresh));
  }, 120_000);
});

describe("conversation caches", () => {
  it("keeps four conversations, drops the oldest, and none across models", async () => {
    const engine = new TransformersEngine({ localModelPath });
    const ask = async (conversationId: string, source: ModelSource, messages = step1) => {
      const events: RawEngineEvent[] = [];
      await engine.generate({ id: conversationId, model: source, conversationId, messages, tools, maxNewTokens: 4, temperature: 0 }, (event) => events.push(event), new AbortController().signal);
      return usageOf(events);
    };
    for (const id of ["a", "b", "c", "d", "e"]) await ask(id, models["qwen3.5"]!);
    expect((await ask("a", models["qwen3.5"]!, step2)).cachedPromptTokens).toBe(0);
    expect((await ask("e", models["qwen3.5"]!, step2)).cachedPromptTokens).toBeGreaterThan(0);
    // Another model drops the cache.
    expect((await ask("e", models.qwen3!, step2)).cachedPromptTokens).toBe(0);
  }, 120_000);
});
