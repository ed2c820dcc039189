import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelFormat } from "../../models/model-formats.js";
import type { ModelOutputEvent } from "../../models/model-output-event.js";
import {
  DEFAULT_QWEN35_TOOL_CALL,
  DEFAULT_SCRIPTED_TOOL_CALL,
  ensureTestModel,
  formatToolCall,
  formatXmlToolCall,
  qwen35ScriptedModel,
  scriptedModel,
} from "../../models/test-models/index.js";
import type { GenerateRequest, RawEngineEvent } from "../protocol.js";
import { testModelSource } from "../test-fixtures/test-model-source.js";
import { TransformersEngine } from "../transformers-engine.js";
import { jsonSchemaValidator } from "../../bench/constraint/json-schema-validator.js";
import { observeToolCallConstraints, type ToolCallConstraintObserver } from "./constraint-observer.js";
import { forgetTokenizerStates } from "./tokenizer-state.js";
import { HERMES_LAYOUTS, LAYOUT_TOOLS, XML_LAYOUTS } from "./test-fixtures/call-layouts.js";

const tools = [
  {
    name: "add_to_cart",
    description: "Adds a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" }, quantity: { type: "integer" } }, required: ["sku"] },
  },
  { name: "go_to", description: "Opens a page.", inputSchema: { type: "object", properties: { page: { type: "string", enum: ["cart", "home"] } }, required: ["page"] } },
];

const textOf = (events: RawEngineEvent[]) => events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");
const ajv = jsonSchemaValidator();

/** A layout's scripted model: it writes `text`, then ends its turn. */
const layoutModel = (format: "qwen3" | "qwen3.5", index: number, text: string) => scriptedModel({ id: `layout-${format === "qwen3" ? "hermes" : "xml"}-${index}`, replies: [text], chatFormat: format });
/** Its first token is a newline (the streamer hands that on at once), then a sentence and a call. */
const lineFirstModel = () => scriptedModel({ id: "scripted-line-first", replies: [`\nI will add the socks.\n${formatToolCall({ name: "add_to_cart", arguments: { sku: "socks" } })}`] });

describe("the tool-call constraint in the real transformers.js engine (Node, CPU; scripted models)", () => {
  let engine: TransformersEngine;
  let run: (request: Partial<GenerateRequest> & Pick<GenerateRequest, "model">) => Promise<string>;
  /** The last run's `usage.repairedCalls`. */
  let repairedCalls: number | undefined;
  const calls: Parameters<NonNullable<ToolCallConstraintObserver["callClosed"]>>[0][] = [];
  const detach = observeToolCallConstraints({ callClosed: (call) => calls.push(call) });
  afterAll(detach);

  beforeAll(async () => {
    const [scripted] = await Promise.all([
      ensureTestModel(scriptedModel()),
      ensureTestModel(qwen35ScriptedModel()),
      ensureTestModel(qwen35ScriptedModel({ id: "scripted-qwen35-reasoning", reasoning: { end: "tool_call" } })),
      ensureTestModel(qwen35ScriptedModel({ id: "scripted-qwen35-invalid", invalidCall: true })),
      ensureTestModel(scriptedModel({ id: "scripted-unknown-tool", replies: [formatToolCall({ name: "delete_everything", arguments: { sku: 7 } })] })),
      ensureTestModel(lineFirstModel()),
    ]);
    for (const [index, text] of HERMES_LAYOUTS.entries()) await ensureTestModel(layoutModel("qwen3", index, text));
    for (const [index, text] of XML_LAYOUTS.entries()) await ensureTestModel(layoutModel("qwen3.5", index, text));
    engine = new TransformersEngine({ localModelPath: `${dirname(scripted.folder)}/` });
    let count = 0;
    run = async (request) => {
      const events: RawEngineEvent[] = [];
      await engine.generate(
        { id: `g${++count}`, conversationId: `c${count}`, messages: [{ role: "user", content: "Buy socks" }], tools, temperature: 0, maxNewTokens: 160, ...request },
        (event) => events.push(event),
        new AbortController().signal,
      );
      const usage = events.find((event) => event.type === "usage");
      repairedCalls = usage?.type === "usage" ? usage.usage.repairedCalls : undefined;
      return textOf(events);
    };
  }, 600_000);

  // 80 tokens, and 8 (near the limit from the start: \`auto\` then asks how short a call can be, which needs the grammar).
  it.each([80, 8])("nothing of the constraint is read or built with constrainToolCalls: false; on, only once the first token is out (maxNewTokens %i)", async (maxNewTokens) => {
    // A fresh engine (its own tokenizer, nothing of it built, nothing kept from an earlier load), and its events and the constraint's in the order they came.
    forgetTokenizerStates();
    const folder = `${dirname((await ensureTestModel(lineFirstModel())).folder)}/`;
    const fresh = new TransformersEngine({ localModelPath: folder });
    const order: string[] = [];
    let compiled!: () => void;
    const compiledOnce = new Promise<void>((resolve) => (compiled = resolve));
    const detachOrder = observeToolCallConstraints({ built: ({ part }) => order.push(`built ${part}`), compiled: () => (order.push("compiled"), compiled()) });
    try {
      const model = testModelSource("scripted-line-first");
      const generate = (id: string, constrainToolCalls: boolean) =>
        fresh.generate({ id, conversationId: id, model, messages: [{ role: "user", content: "Buy socks" }], tools, temperature: 0, maxNewTokens, constrainToolCalls }, (event) => event.type === "text" && order.push("text"), new AbortController().signal);
      await generate("off-1", false);
      await generate("off-2", false);
      expect(order.filter((entry) => entry !== "text")).toEqual([]);
      order.length = 0;
      await generate("on", true);
      // The build may finish after the reply: awaited by its event, not by a wait.
      await compiledOnce;
      expect(order[0]).toBe("text");
      expect(order.filter((entry) => entry !== "text")).toEqual(["built vocabulary", "built xgrammar", "compiled"]);
      // The model loaded again (another engine: a new tokenizer object, the same tokenizer.json) builds nothing again.
      order.length = 0;
      const again = new TransformersEngine({ localModelPath: folder });
      await again.generate({ id: "again", conversationId: "again", model: testModelSource("scripted-line-first"), messages: [{ role: "user", content: "Buy socks" }], tools, temperature: 0, maxNewTokens, constrainToolCalls: true }, (event) => event.type === "text" && order.push("text"), new AbortController().signal);
      expect(order.length).toBeGreaterThan(0);
      expect(order.filter((entry) => entry !== "text")).toEqual([]);
    } finally {
      detachOrder();
    }
  }, 120_000);

  it("exactness: the scripted models' greedy calls are byte-identical with and without the constraint, auto and required", async () => {
    const cases = [
      { model: testModelSource("scripted"), expected: formatToolCall(DEFAULT_SCRIPTED_TOOL_CALL) },
      { model: testModelSource("scripted-qwen35", { format: "qwen3.5" }), expected: formatXmlToolCall(DEFAULT_QWEN35_TOOL_CALL) },
    ];
    for (const { model, expected } of cases) {
      const off = await run({ model, constrainToolCalls: false });
      expect(off).toBe(expected);
      expect(repairedCalls, "nothing is counted with the constraint off").toBeUndefined();
      expect(await run({ model })).toBe(off);
      expect(repairedCalls, "nor unless asked").toBeUndefined();
      expect(await run({ model, reportRepairs: true })).toBe(off);
      expect(repairedCalls, "a call written right is not repaired").toBe(0);
      expect(await run({ model, toolChoice: "required" })).toBe(off);
    }
  }, 120_000);

  it.each([
    { format: "qwen3" as const, layouts: HERMES_LAYOUTS },
    { format: "qwen3.5" as const, layouts: XML_LAYOUTS },
  ])("exactness on every layout the $format parser reads (vLLM's tests' shapes): the same text and calls with the constraint on and off", async ({ format, layouts }) => {
    const parsed = (text: string) => {
      const parser = modelFormat(format).createParser({ tools: LAYOUT_TOOLS, thinking: false });
      return [...parser.push(text), ...parser.end()];
    };
    calls.length = 0;
    for (const [index, layout] of layouts.entries()) {
      const model = testModelSource(`layout-${format === "qwen3" ? "hermes" : "xml"}-${index}`, { format });
      const off = await run({ model, tools: LAYOUT_TOOLS, constrainToolCalls: false });
      expect(off, "the scripted model writes the layout").toBe(layout);
      const on = await run({ model, tools: LAYOUT_TOOLS });
      expect(on, layout).toBe(off);
      const events: ModelOutputEvent[] = parsed(on);
      expect(events.filter((event) => event.type === "tool-call-invalid"), layout).toEqual([]);
      for (const event of events) {
        if (event.type !== "tool-call") continue;
        const tool = LAYOUT_TOOLS.find((candidate) => candidate.name === event.name)!;
        expect(ajv.valid(tool.inputSchema, event.input), `${layout}: ${ajv.errors()}`).toBe(true);
      }
    }
    // Jump-forward wrote some of these calls' fixed stretches (a name's rest, a tag) in fewer passes than tokens.
    expect(calls.some((call) => call.forwardPasses < call.tokens)).toBe(true);
  }, 300_000);

  it("exactness with thinking on: reasoning, then a call opened inside the unclosed <think>, identical under auto and required", async () => {
    const model = testModelSource("scripted-qwen35-reasoning", { format: "qwen3.5" });
    const off = await run({ model, enableThinking: true, constrainToolCalls: false, maxNewTokens: 120 });
    expect(off).toContain("<function=add_to_cart>");
    expect(await run({ model, enableThinking: true, maxNewTokens: 120 })).toBe(off);
    expect(await run({ model, enableThinking: true, toolChoice: "required", maxNewTokens: 120 })).toBe(off);
  }, 120_000);

  it("a call the model would write wrong (JSON in Qwen3.5's tags; an unknown tool) comes out as a valid call of an offered tool", async () => {
    const cases = [
      { model: testModelSource("scripted-qwen35-invalid", { format: "qwen3.5" }), wrong: "{" },
      { model: testModelSource("scripted-unknown-tool"), wrong: "delete_everything" },
    ];
    for (const { model, wrong } of cases) {
      expect(await run({ model, constrainToolCalls: false })).toContain(wrong);
      const text = await run({ model, maxNewTokens: 60, reportRepairs: true });
      expect(repairedCalls, text).toBe(1);
      const format = modelFormat(model.format);
      const parser = format.createParser({ tools, thinking: false });
      const parsed = [...parser.push(text), ...parser.end()].filter((event) => event.type === "tool-call" || event.type === "tool-call-invalid");
      expect(parsed, text).toHaveLength(1);
      const [call] = parsed;
      expect(call?.type, text).toBe("tool-call");
      if (call?.type !== "tool-call") return;
      const tool = tools.find((candidate) => candidate.name === call.name);
      expect(tool, text).toBeDefined();
      expect(ajv.valid(tool!.inputSchema, call.input), text).toBe(true);
    }
  }, 120_000);

  it("none: the scripted model that always calls cannot open a call (the opener token and its spellings are masked)", async () => {
    for (const model of [testModelSource("scripted"), testModelSource("scripted-qwen35", { format: "qwen3.5" })]) {
      const text = await run({ model, toolChoice: "none", maxNewTokens: 40 });
      expect(text).not.toContain("<tool_call>");
      // Off, the same request writes the call: the mask is what changed it.
      expect(await run({ model, toolChoice: "none", constrainToolCalls: false, maxNewTokens: 40 })).toContain("<tool_call>");
    }
  }, 120_000);
});
