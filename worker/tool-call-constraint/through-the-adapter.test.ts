import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonSchemaValidator } from "../../bench/constraint/json-schema-validator.js";
import type { CatalogEntry } from "../../models/catalog-schema.js";
import { modelFormat } from "../../models/model-formats.js";
import { ensureTestModel, scriptedModel } from "../../models/test-models/index.js";
import { createLocalAdapter } from "../../runtime/adapters/local/create-local-adapter.js";
import type { AgentAdapter, AgentRunRequest } from "../../runtime/session/agent-adapter.js";
import type { AgentStreamPart } from "../../runtime/session/agent-stream-part.js";
import { createEngineClient, type EngineClient, type WorkerLike } from "../engine-client.js";
import { createEngineHost } from "../engine-host.js";
import { exposeEngineHost } from "../expose-engine-host.js";
import { TransformersEngine } from "../transformers-engine.js";
import { observeToolCallConstraints } from "./constraint-observer.js";
import { HERMES_LAYOUTS, LAYOUT_TOOLS, XML_LAYOUTS } from "./test-fixtures/call-layouts.js";

/**
 * Issue 25's reproduction, as a site runs it: `createLocalAdapter` over the
 * real engine client and host (one MessageChannel in one thread, as
 * worker/engine-client.test.ts does: only the Web Worker itself is left out)
 * and the real transformers.js, on scripted models that write each accepted
 * layout, then answer. With the constraint on, the adapter must yield the
 * same calls, inputs and text as with it off, and each call valid (ajv).
 */
const FORMATS = [
  { format: "qwen3" as const, tag: "hermes", layouts: HERMES_LAYOUTS },
  { format: "qwen3.5" as const, tag: "xml", layouts: XML_LAYOUTS },
];
const ANSWER = "Done.";

/**
 * Issue 35's reproduction: a site's loose schemas (any arguments; one
 * listed property and any others) and a model that writes arguments they
 * do not list. The default constraint must hand them over unchanged.
 */
const LOOSE_TOOLS = [
  { name: "get_weather", description: "Weather for a place.", inputSchema: { type: "object", properties: {}, additionalProperties: true } },
  { name: "find_hotel", description: "Finds a hotel.", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
];
const LOOSE_CALLS = [
  { format: "qwen3" as const, id: "adapter-loose-hermes", reply: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "NYC"}}\n</tool_call><tool_call>\n{"name": "find_hotel", "arguments": {"stars": 4, "city": "Oslo", "near": {"lat": 59.9, "lon": 10.7}}}\n</tool_call>', input: [{ name: "get_weather", input: { city: "NYC" } }, { name: "find_hotel", input: { stars: 4, city: "Oslo", near: { lat: 59.9, lon: 10.7 } } }] },
  // Qwen3.5 XML: one unlisted parameter, first (what the format's parser can read as one: grammar/build-call-grammar.ts).
  { format: "qwen3.5" as const, id: "adapter-loose-xml", reply: "<tool_call>\n<function=get_weather>\n<parameter=city>\nNYC\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=find_hotel>\n<parameter=near>\nthe harbour\n</parameter>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>", input: [{ name: "get_weather", input: { city: "NYC" } }, { name: "find_hotel", input: { near: "the harbour", city: "Oslo" } }] },
];
const modelId = (tag: string, index: number) => `adapter-layout-${tag}-${index}`;

/** A catalog entry for a scripted model folder (the CPU path; Node reads the folder, so no files are listed). */
const entry = (id: string, format: "qwen3" | "qwen3.5"): CatalogEntry => ({
  id,
  label: `Test model: ${id}`,
  brief: "For tests only.",
  parameters: 1,
  format,
  testModel: true,
  baseUrl: "/models",
  variants: [{ id: "wasm-fp32", engine: "transformers", device: "wasm", dtype: "fp32", repo: id, requiresShaderF16: false, files: [], bytes: 1 }],
});

/** The adapter's parts with ids left out: what a person and the tools see. */
function reading(parts: AgentStreamPart[]): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    if (part.type === "text-delta") {
      const last = lines.at(-1);
      if (last?.startsWith("text ")) lines[lines.length - 1] = last + part.delta;
      else lines.push(`text ${part.delta}`);
    } else if (part.type === "tool-call") lines.push(`tool-call ${part.name} ${JSON.stringify(part.input)}`);
    else if (part.type === "tool-error") lines.push(`tool-error ${part.code} ${part.error}`);
    else if (part.type === "reasoning") lines.push(`reasoning ${part.text}`);
    else if (part.type === "finish" || part.type === "error") lines.push(`${part.type} ${"reason" in part ? part.reason : part.error}`);
  }
  return lines;
}

describe("constrained calls through createLocalAdapter (real engine client, host and transformers.js; scripted models)", () => {
  let client: EngineClient;
  const ajv = jsonSchemaValidator();
  const adapters = new Map<string, AgentAdapter>();
  // The constraint's own report of each call it held: it must have held every call of the "on" runs, none of the "off" ones.
  let closedCalls = 0;
  const detach = observeToolCallConstraints({ callClosed: () => void (closedCalls += 1) });

  beforeAll(async () => {
    let folder = "";
    for (const { format, tag, layouts } of FORMATS) {
      for (const [index, layout] of layouts.entries()) {
        folder = dirname((await ensureTestModel(scriptedModel({ id: modelId(tag, index), replies: [layout, ANSWER], chatFormat: format }))).folder);
      }
    }
    for (const { format, id, reply } of LOOSE_CALLS) await ensureTestModel(scriptedModel({ id, replies: [reply, ANSWER], chatFormat: format }));
    const engine = new TransformersEngine({ localModelPath: `${folder}/` });
    const host = createEngineHost({
      engines: { transformers: () => engine },
      store: { cacheStatus: async () => ({ cached: true }), download: async () => {}, deleteModel: async () => {} },
      requireCached: false,
      probe: async () => ({ webgpu: false, fallbackAdapter: false, shaderF16: false, cores: 2, crossOriginIsolated: false }),
    });
    const spawn = (): WorkerLike => {
      const { port1, port2 } = new MessageChannel();
      exposeEngineHost(host, port2 as never);
      return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as WorkerLike;
    };
    client = createEngineClient({ spawn });
  }, 120_000);
  afterAll(() => (detach(), client?.terminate()));

  /** `constrainToolCalls` undefined: the adapter's default. */
  const adapterFor = async (id: string, format: "qwen3" | "qwen3.5", constrainToolCalls: boolean | undefined) => {
    const key = `${id} ${constrainToolCalls}`;
    if (!adapters.has(key)) {
      const adapter = createLocalAdapter({
        id: `exactness-${key.replace(" ", "-")}`,
        catalog: { models: [entry(id, format)], rememberModel: false },
        worker: { host: client },
        generation: { temperature: 0, maxNewTokens: 200, ...(constrainToolCalls !== undefined && { constrainToolCalls }) },
      });
      await adapter.prepare();
      adapters.set(key, adapter);
    }
    return adapters.get(key)!;
  };

  const run = async (adapter: AgentAdapter, tools: AgentRunRequest["tools"] = LAYOUT_TOOLS) => {
    const called: { name: string; input: unknown }[] = [];
    const request: AgentRunRequest = {
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Buy socks" }] }],
      tools,
      signal: new AbortController().signal,
      callTool: async (call) => (called.push({ name: call.name, input: call.input }), { content: [{ type: "text", text: "OK." }] }),
    };
    const parts: AgentStreamPart[] = [];
    for await (const part of adapter.run(request)) parts.push(part);
    return { lines: reading(parts), called };
  };

  it.each(FORMATS)("every layout the $format parser reads: the same calls, inputs and text with the constraint on and off", async ({ format, tag, layouts }) => {
    for (const [index, layout] of layouts.entries()) {
      const id = modelId(tag, index);
      const offAdapter = await adapterFor(id, format, false);
      const onAdapter = await adapterFor(id, format, true);
      closedCalls = 0;
      const off = await run(offAdapter);
      expect(closedCalls, "nothing constrained with constrainToolCalls: false").toBe(0);
      const on = await run(onAdapter);
      expect(closedCalls, `the constraint held each call: ${layout}`).toBe(on.called.length);
      expect(on.lines, layout).toEqual(off.lines);
      expect(on.called, layout).toEqual(off.called);
      // What the format's parser reads in the layout is what ran: nothing rewritten, nothing leaked into the text.
      const parser = modelFormat(format).createParser({ tools: LAYOUT_TOOLS, thinking: false });
      const expected = [...parser.push(layout), ...parser.end()].flatMap((event) => (event.type === "tool-call" ? [{ name: event.name, input: event.input }] : []));
      expect(expected.length, layout).toBeGreaterThan(0);
      expect(on.called, layout).toEqual(expected);
      expect(on.lines.filter((line) => line.startsWith("tool-error")), layout).toEqual([]);
      expect(on.lines.at(-1), layout).toBe("finish stop");
      expect(on.lines.filter((line) => line.startsWith("text ")).join("\n"), layout).not.toMatch(/<\/?(tool_call|function|parameter)|"arguments"/);
      for (const call of on.called) {
        const schema = LAYOUT_TOOLS.find((tool) => tool.name === call.name)!.inputSchema;
        expect(ajv.valid(schema, call.input), `${layout}: ${ajv.errors()}`).toBe(true);
      }
    }
  }, 240_000);

  it.each(LOOSE_CALLS)("$format: a loose schema gets the model's unlisted arguments unchanged under the default constraint", async ({ format, id, input }) => {
    const adapter = await adapterFor(id, format, undefined);
    closedCalls = 0;
    const { lines, called } = await run(adapter, LOOSE_TOOLS);
    // The default constrains (createLocalAdapter's constrainToolCalls is on): it held both calls, and changed neither.
    expect(closedCalls).toBe(2);
    expect(called).toEqual(input);
    expect(lines.filter((line) => line.startsWith("tool-error"))).toEqual([]);
    expect(lines.at(-1)).toBe("finish stop");
  }, 120_000);
});
