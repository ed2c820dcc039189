import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPTED_ANSWER, DEFAULT_SCRIPTED_TOOL_CALL, ensureTestModel, formatToolCall, scriptedModel, tinyModel } from "../models/test-models/index.js";
import { EngineError } from "./engine-error.js";
import type { RawEngineEvent, GenerateRequest } from "./protocol.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";
import { TransformersEngine } from "./transformers-engine.js";

const source = (id: string) => testModelSource(id);

const tools = [
  { name: "add_to_cart", description: "Adds a product to the cart.", inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] } },
];

const collect = async (engine: TransformersEngine, request: GenerateRequest, signal = new AbortController().signal) => {
  const events: RawEngineEvent[] = [];
  await engine.generate(request, (event) => events.push(event), signal);
  return events;
};
const textOf = (events: RawEngineEvent[]) => events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");

describe("TransformersEngine on the real transformers.js (Node, CPU)", () => {
  let engine: TransformersEngine;
  let localModelPath: string;

  beforeAll(async () => {
    const [scripted] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
    localModelPath = `${dirname(scripted.folder)}/`;
    engine = new TransformersEngine({ localModelPath });
  }, 120_000);

  it("streams the scripted tool call, then after the tool message the scripted answer", async () => {
    const messages: GenerateRequest["messages"] = [{ role: "user", content: "Buy socks" }];
    const first = await collect(engine, { id: "g1", model: source("scripted"), conversationId: "c1", messages, tools, temperature: 0 });
    expect(textOf(first)).toBe(formatToolCall(DEFAULT_SCRIPTED_TOOL_CALL));
    expect(first.at(-1)).toEqual({ type: "finish", reason: "stop" });
    const usage = first.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage.promptTokens).toBeGreaterThan(10);
    expect(usage?.type === "usage" && usage.usage.outputTokens).toBeGreaterThan(3);

    const second = await collect(engine, {
      id: "g2",
      model: source("scripted"),
      conversationId: "c1",
      messages: [
        ...messages,
        { role: "assistant", content: "", tool_calls: [{ type: "function", function: DEFAULT_SCRIPTED_TOOL_CALL }] },
        { role: "tool", content: '{"ok":true}' },
      ],
      tools,
      temperature: 0,
    });
    expect(textOf(second)).toBe(DEFAULT_SCRIPTED_ANSWER);
    expect(second.filter((event) => event.type === "finish")).toEqual([{ type: "finish", reason: "stop" }]);
  }, 60_000);

  it("reads the chat template from chat_template.jinja when tokenizer_config.json carries none, as newer exports ship it", async () => {
    const { folder } = await ensureTestModel(scriptedModel({ id: "scripted-jinja-template", chatTemplateFile: true }));
    expect(JSON.parse(readFileSync(join(folder, "tokenizer_config.json"), "utf8"))).not.toHaveProperty("chat_template");
    expect(existsSync(join(folder, "chat_template.jinja"))).toBe(true);
    const events = await collect(engine, {
      id: "jinja",
      model: source("scripted-jinja-template"),
      conversationId: "jinja",
      messages: [{ role: "user", content: "Buy socks" }],
      tools,
      temperature: 0,
    });
    // The scripted graph answers with its call only when the template rendered the prompt it knows.
    expect(textOf(events)).toBe(formatToolCall(DEFAULT_SCRIPTED_TOOL_CALL));

    // With neither, the load fails and says why, instead of rendering no prompt.
    const bare = mkdtempSync(join(tmpdir(), "no-template-"));
    try {
      cpSync(folder, join(bare, "scripted-no-template"), { recursive: true });
      rmSync(join(bare, "scripted-no-template", "chat_template.jinja"));
      const error = await new TransformersEngine({ localModelPath: `${bare}/` }).load(source("scripted-no-template")).catch((caught: unknown) => caught);
      expect(EngineError.isInstance(error) && error.toJSON()).toMatchObject({
        code: "load_failed",
        message: expect.stringContaining("has no chat template: its tokenizer_config.json names none and it has no chat_template.jinja"),
      });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  }, 60_000);

  it("generates on the tiny model with usage, and stops at maxNewTokens with reason length", async () => {
    const events = await collect(engine, { id: "g3", model: source("tiny"), conversationId: "c2", messages: [{ role: "user", content: "Hi" }], tools: [], maxNewTokens: 12, temperature: 0 });
    const usage = events.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage).toMatchObject({ outputTokens: 12, cachedPromptTokens: 0 });
    expect(usage?.type === "usage" && usage.usage.decodeTokensPerSecond).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
  }, 60_000);

  it("reuses a conversation's KV cache for the common token prefix: the same output, fewer tokens to prefill", async () => {
    const usageOf = (events: RawEngineEvent[]) => events.flatMap((event) => (event.type === "usage" ? [event.usage] : []))[0]!;
    const ask = (conversationId: string, messages: GenerateRequest["messages"]) =>
      collect(engine, { id: `kv-${conversationId}-${messages.length}`, model: source("tiny"), conversationId, messages, tools, maxNewTokens: 16, temperature: 0 });
    const first: GenerateRequest["messages"] = [{ role: "user", content: "Hello there" }];
    const step1 = await ask("kv", first);
    expect(usageOf(step1).cachedPromptTokens).toBe(0);
    const next: GenerateRequest["messages"] = [...first, { role: "assistant", content: textOf(step1) }, { role: "user", content: "Tell me more" }];

    const reused = await ask("kv", next);
    const fresh = await ask("kv-fresh", next);
    expect(usageOf(fresh).cachedPromptTokens).toBe(0);
    expect(usageOf(reused).cachedPromptTokens).toBeGreaterThan(usageOf(step1).promptTokens / 2);
    expect(usageOf(reused).cachedPromptTokens).toBeLessThan(usageOf(reused).promptTokens);
    expect(usageOf(reused).promptTokens).toBe(usageOf(fresh).promptTokens);
    expect(textOf(fresh)).not.toBe("");
    expect(textOf(reused)).toBe(textOf(fresh));
    expect(usageOf(reused).outputTokens).toBe(usageOf(fresh).outputTokens);

    // Another model drops the cache: no reuse across models.
    const other = await collect(engine, { id: "kv-other", model: source("scripted"), conversationId: "kv", messages: next, tools, temperature: 0 });
    expect(usageOf(other).cachedPromptTokens).toBe(0);
  }, 60_000);

  it("ends promptly with reason aborted when the signal aborts mid-generation", async () => {
    const controller = new AbortController();
    const events: RawEngineEvent[] = [];
    let abortedAt = 0;
    const request: GenerateRequest = { id: "g4", model: source("tiny"), conversationId: "c3", messages: [{ role: "user", content: "Hi" }], tools: [], maxNewTokens: 5000, temperature: 0 };
    await engine.generate(
      request,
      (event) => {
        events.push(event);
        if (event.type === "text" && !abortedAt) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
      controller.signal,
    );
    expect(performance.now() - abortedAt).toBeLessThan(500);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "aborted" });
    const usage = events.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage.outputTokens).toBeLessThan(100);
  }, 60_000);

  it("reports load progress from 0 to 1, rising with the bytes of the files read", async () => {
    const fresh = new TransformersEngine({ localModelPath });
    const progress: number[] = [];
    await fresh.load(source("tiny"), ({ progress: value }) => progress.push(value));
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((value, i) => i === 0 || value >= progress[i - 1]!)).toBe(true);
    expect(progress.some((value) => value > 0.1 && value < 1)).toBe(true);
  }, 60_000);

  it("rejects a model it cannot find as a load_failed EngineError", async () => {
    const error = await engine.load(source("no-such-model"), () => {}).catch((caught: unknown) => caught);
    expect(EngineError.isInstance(error) && error.code).toBe("load_failed");
  }, 30_000);
});
