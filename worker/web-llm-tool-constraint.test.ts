import { describe, expect, it } from "vitest";
import type { ModelSource } from "./protocol.js";
import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";
import { loadXGrammar } from "./tool-call-constraint/load-xgrammar.js";
import { webLlmToolConstraint } from "./web-llm-tool-constraint.js";

const qwen3: ModelSource = { key: "qwen3-0.6b/webgpu-q4f16", engine: "web-llm", device: "webgpu", dtype: "q4f16_1", repo: "Qwen3-0.6B-q4f16_1-MLC", baseUrl: "https://huggingface.co", files: [{ path: "all", bytes: 1 }] };
const qwen35: ModelSource = { ...qwen3, key: "qwen3.5-0.8b/webgpu", repo: "Qwen3.5-0.8B-q4f16_1-MLC", format: "qwen3.5" };
const tools: ToolDescriptor[] = [
  {
    name: "add_to_cart",
    description: "Adds to cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string", enum: ["socks", "hat"] }, quantity: { type: "integer" } }, required: ["sku"] },
  },
];

/**
 * What web-llm does with `response_format: { type: "structural_tag" }`: it
 * hands the tag to its bundled xgrammar. Here the same xgrammar release
 * (`@mlc-ai/web-xgrammar`) compiles it and says which texts it accepts (no
 * MLC weights or GPU here, so web-llm itself is not run).
 */
async function accepts(format: unknown, text: string): Promise<boolean> {
  const xgrammar = await loadXGrammar();
  const tag = (format as { structural_tag: unknown }).structural_tag;
  const grammar = await xgrammar.Grammar.fromStructuralTag(tag as never);
  try {
    return await xgrammar.Testings.isGrammarAcceptString(grammar, text);
  } finally {
    grammar.dispose();
  }
}

describe("webLlmToolConstraint: the call constraint as web-llm's structural tag (checked with the real xgrammar, not web-llm)", () => {
  it("Qwen3: text flows until <tool_call>, then only an offered tool with schema-valid arguments", async () => {
    const { response_format, logit_bias, warnings } = await webLlmToolConstraint({ model: qwen3, tools });
    expect(logit_bias).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(await accepts(response_format, "Sure.")).toBe(true);
    expect(await accepts(response_format, 'Adding.<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks", "quantity": 2}}\n</tool_call>')).toBe(true);
    expect(await accepts(response_format, '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "shoes"}}\n</tool_call>')).toBe(false);
    expect(await accepts(response_format, '<tool_call>\n{"name": "place_order", "arguments": {}}\n</tool_call>')).toBe(false);
    expect(await accepts(response_format, '<tool_call>\n{"name": "add_to_cart", "arguments": {"quantity": 2}}\n</tool_call>')).toBe(false);
    expect(await accepts(response_format, '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks", "quantity": "2"}}\n</tool_call>')).toBe(false);
  });

  it("Qwen3.5: the XML call with raw string values (an enum member unquoted), typed values as JSON", async () => {
    const { response_format } = await webLlmToolConstraint({ model: qwen35, tools });
    const call = (body: string) => `<tool_call>\n<function=add_to_cart>\n${body}</function>\n</tool_call>`;
    expect(await accepts(response_format, `I'll add them.\n\n${call("<parameter=sku>\nsocks\n</parameter>\n<parameter=quantity>\n2\n</parameter>\n")}`)).toBe(true);
    expect(await accepts(response_format, call('<parameter=sku>\n"socks"\n</parameter>\n'))).toBe(false);
    expect(await accepts(response_format, call("<parameter=quantity>\n2\n</parameter>\n"))).toBe(false);
    expect(await accepts(response_format, call("<parameter=sku>\nsocks\n</parameter>\n<parameter=quantity>\ntwo\n</parameter>\n"))).toBe(false);
  });

  it("required puts a call first (no text before it) unless thinking is on; none bans the opener token; off means nothing is sent", async () => {
    const required = await webLlmToolConstraint({ model: qwen3, tools, toolChoice: "required" });
    const callText = '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "hat"}}\n</tool_call>';
    expect(await accepts(required.response_format, callText)).toBe(true);
    expect(await accepts(required.response_format, "No call.")).toBe(false);
    const thinking = await webLlmToolConstraint({ model: qwen3, tools, toolChoice: "required", enableThinking: true });
    expect(await accepts(thinking.response_format, "<think>\nhm\n</think>\n\n" + callText)).toBe(true);
    expect(await webLlmToolConstraint({ model: qwen3, tools, toolChoice: "none" })).toEqual({ logit_bias: { "151657": -100 }, warnings: [] });
    expect(await webLlmToolConstraint({ model: qwen35, tools: [], toolChoice: "none" })).toEqual({ logit_bias: { "248058": -100 }, warnings: [] });
    expect(await webLlmToolConstraint({ model: qwen3, tools, constrainToolCalls: false })).toEqual({ warnings: [] });
    expect(await webLlmToolConstraint({ model: qwen3, tools: [] })).toEqual({ warnings: [] });
  });

  it("a keyword the constraint does not enforce (a pattern): one warning naming the tool and keyword, the rest of it and the other tools still held", async () => {
    const odd: ToolDescriptor = { name: "find", description: "Finds.", inputSchema: { type: "object", properties: { q: { type: "string", pattern: "(?<=a)b" }, n: { type: "integer", maximum: 3 } } } };
    const { response_format, warnings } = await webLlmToolConstraint({ model: qwen3, tools: [...tools, odd] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"find".*"pattern" \(at properties\/q\)/);
    expect(await accepts(response_format, '<tool_call>\n{"name": "find", "arguments": {"q": "anything", "n": 2}}\n</tool_call>')).toBe(true);
    expect(await accepts(response_format, '<tool_call>\n{"name": "find", "arguments": {"q": "anything", "n": 4}}\n</tool_call>')).toBe(false);
    expect(await accepts(response_format, '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "shoes"}}\n</tool_call>')).toBe(false);
  });

  it("any layout the parsers read is admitted (no newline after the opener, the arguments first, a call right after text), and web-llm is told which bounds it cannot keep", async () => {
    const { response_format } = await webLlmToolConstraint({ model: qwen3, tools });
    expect(await accepts(response_format, 'Adding.<tool_call>{"arguments": {"sku": "hat"},\n "name": "add_to_cart"}</tool_call>')).toBe(true);
    const bounded: ToolDescriptor = { name: "note", description: "Notes.", inputSchema: { type: "object", properties: { text: { type: "string", maxLength: 200 } }, required: ["text"] } };
    const { warnings } = await webLlmToolConstraint({ model: qwen35, tools: [bounded] });
    expect(warnings).toEqual([expect.stringMatching(/^Tool "note": its input schema's "maxLength" \(at properties\/text\) cannot be enforced while web-llm decodes/)]);
  });
});
