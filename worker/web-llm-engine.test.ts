import type { ChatCompletionChunk, ChatCompletionRequestStreaming, InitProgressCallback, MLCEngineInterface } from "@mlc-ai/web-llm";
import { describe, expect, it } from "vitest";
import type { EngineEvent, RawEngineEvent, GenerateRequest, ModelSource } from "./protocol.js";
import type { AgentMessage } from "../runtime/session/agent-message.js";
import { createEngineHost } from "./engine-host.js";
import { WebLlmEngine } from "./web-llm-engine.js";
import { loadXGrammar } from "./tool-call-constraint/load-xgrammar.js";

const model: ModelSource = { key: "qwen3-0.6b/webgpu-q4f16", engine: "web-llm", device: "webgpu", dtype: "q4f16_1", repo: "Qwen3-0.6B-q4f16_1-MLC", baseUrl: "https://huggingface.co", files: [{ path: "all", bytes: 1000 }] };

/**
 * A double of web-llm's `MLCEngineInterface` (no MLC weights or GPU here,
 * measured on these machines): reload reports progress, create streams chunks one per tick
 * until interrupted, the last chunk carries usage.
 */
function mlcDouble(reply: string[]) {
  const calls = { reloads: [] as string[], requests: [] as ChatCompletionRequestStreaming[], interrupted: 0, unloads: 0 };
  let progress: InitProgressCallback = () => {};
  let interrupted = false;
  const chunk = (content: string | undefined, finish: string | null, usage?: ChatCompletionChunk["usage"]): ChatCompletionChunk =>
    ({ id: "x", object: "chat.completion.chunk", created: 0, model: model.repo, choices: usage ? [] : [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish, logprobs: null }], ...(usage ? { usage } : {}) }) as ChatCompletionChunk;
  const engine = {
    setInitProgressCallback: (callback: InitProgressCallback) => void (progress = callback),
    reload: async (id: string) => {
      calls.reloads.push(id);
      for (const fraction of [0.25, 0.5, 1]) progress({ progress: fraction, timeElapsed: 0, text: `Fetching ${fraction}` });
    },
    unload: async () => void (calls.unloads += 1),
    interruptGenerate: () => {
      calls.interrupted += 1;
      interrupted = true;
    },
    chat: {
      completions: {
        create: async (request: ChatCompletionRequestStreaming) => {
          calls.requests.push(request);
          interrupted = false;
          return (async function* () {
            let sent = 0;
            for (const piece of reply) {
              if (interrupted) break;
              await new Promise((resolve) => setTimeout(resolve, 5));
              sent += 1;
              yield chunk(piece, null);
            }
            yield chunk(undefined, interrupted ? "abort" : "stop");
            yield chunk(undefined, null, { prompt_tokens: 42, completion_tokens: sent, total_tokens: 42 + sent, extra: { e2e_latency_s: 1, prefill_tokens_per_s: 100, decode_tokens_per_s: 25, time_to_first_token_s: 0.2 } } as ChatCompletionChunk["usage"]);
          })();
        },
      },
    },
  };
  return { engine: engine as unknown as MLCEngineInterface, calls };
}

const library = (cached: Set<string>) => async () =>
  ({
    MLCEngine: class {},
    hasModelInCache: async (id: string) => cached.has(id),
    deleteModelAllInfoInCache: async (id: string) => void cached.delete(id),
  }) as never;

/** `request`'s messages as the session holds them: what the page sends the worker's host. */
const shopperConversation: AgentMessage[] = [
  { id: "u", role: "user", parts: [{ type: "text", text: "Buy socks" }] },
  { id: "a", role: "assistant", parts: [{ type: "tool", id: "c1", name: "add_to_cart", input: { sku: "socks" }, state: "done", output: { content: [{ type: "text", text: '{"ok":true}' }] } }] },
];

const request: GenerateRequest = {
  id: "g",
  model,
  conversationId: "c",
  messages: [
    { role: "system", content: "You help shoppers." },
    { role: "user", content: "Buy socks" },
    { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "add_to_cart", arguments: { sku: "socks" } } }] },
    { role: "tool", content: '{"ok":true}' },
  ],
  tools: [{ name: "add_to_cart", description: "Adds to cart.", inputSchema: { type: "object" } }],
  temperature: 0,
};

describe("WebLlmEngine against a double of MLCEngineInterface", () => {
  it("maps init progress to download bytes, and answers cacheStatus and deleteModel from web-llm's cache", async () => {
    const cached = new Set<string>();
    const { engine, calls } = mlcDouble([]);
    const webLlm = new WebLlmEngine({ createEngine: () => engine, importWebLlm: library(cached) });
    expect(await webLlm.cacheStatus(model)).toEqual({ cached: false });
    const progress: number[] = [];
    await webLlm.download(model, (p) => progress.push(p.loadedBytes), new AbortController().signal);
    expect(progress).toEqual([250, 500, 1000]);
    expect(calls.reloads).toEqual([model.repo]);
    cached.add(model.repo);
    expect(await webLlm.cacheStatus(model)).toEqual({ cached: true, bytes: 1000 });
    await webLlm.deleteModel(model);
    expect(calls.unloads).toBe(1);
    expect(await webLlm.cacheStatus(model)).toEqual({ cached: false });
  });

  it("streams text deltas, usage from the last chunk, and renders tools in Qwen's format", async () => {
    const { engine, calls } = mlcDouble(["Added ", "socks."]);
    const webLlm = new WebLlmEngine({ createEngine: () => engine, importWebLlm: library(new Set()) });
    const events: RawEngineEvent[] = [];
    await webLlm.generate(request, (event) => events.push(event), new AbortController().signal);
    expect(events).toEqual([
      { type: "text", text: "Added " },
      { type: "text", text: "socks." },
      { type: "usage", usage: { promptTokens: 42, cachedPromptTokens: 0, outputTokens: 2, timeToFirstTokenMs: 200, decodeTokensPerSecond: 25 } },
      { type: "finish", reason: "stop" },
    ]);
    const sent = calls.requests[0]!;
    expect(sent.stream).toBe(true);
    expect(sent.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(sent.messages[0]!.content).toContain('<tools>\n{"type":"function","function":{"name":"add_to_cart"');
    expect(sent.messages[2]!.content).toBe('<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks"}}\n</tool_call>');
    expect(sent.messages[3]!.content).toBe('<tool_response>\n{"ok":true}\n</tool_response>');
  });

  it("drives a Qwen3.5 MLC build through the raw completion path: the runtime's own XML prompt, no tools API, and the host reads the XML call (a double of web-llm)", async () => {
    const qwen35: ModelSource = { ...model, key: "qwen3.5-0.8b/webgpu-mlc", repo: "Qwen3.5-0.8B-q4f16_1-MLC", format: "qwen3.5" };
    const reply = ["I'll add them.\n\n<tool_call>\n<function=add_", "to_cart>\n<parameter=sku>\nsocks\n</parameter>\n<parameter=quantity>\n2\n</param", "eter>\n</function>\n</tool_call>"];
    const { engine, calls } = mlcDouble(reply);
    const host = createEngineHost({
      engines: { "web-llm": () => new WebLlmEngine({ createEngine: () => engine, importWebLlm: library(new Set([qwen35.repo])) }) },
      store: { cacheStatus: async () => ({ cached: true }), download: async () => {}, deleteModel: async () => {} },
    });
    const tools = [{ name: "add_to_cart", description: "Adds to cart.", inputSchema: { type: "object", properties: { sku: { type: "string" }, quantity: { type: "integer" } } } }];
    const events: EngineEvent[] = [];
    const { messages: _messages, ...rest } = request;
    await host.generate({ ...rest, model: qwen35, tools, basePrompt: "You help shoppers.", conversation: shopperConversation }, (event) => events.push(event));
    expect(events.filter((event) => event.type !== "usage")).toEqual([
      { type: "text-delta", delta: "I'll add them." },
      { type: "tool-call", name: "add_to_cart", input: { sku: "socks", quantity: 2 } },
      { type: "finish", reason: "stop" },
    ]);
    const sent = calls.requests[0]!;
    expect("tools" in sent).toBe(false);
    // The call is constrained by web-llm's own xgrammar: the structural tag accepts the reply the double streamed.
    expect(sent.response_format?.type).toBe("structural_tag");
    const xgrammar = await loadXGrammar();
    const grammar = await xgrammar.Grammar.fromStructuralTag(sent.response_format!.structural_tag as never);
    expect(await xgrammar.Testings.isGrammarAcceptString(grammar, reply.join(""))).toBe(true);
    grammar.dispose();
    expect(sent.messages[0]!.content).toMatch(/^# Tools\n\nYou have access to the following functions:\n\n<tools>\n\{"type":"function"/);
    expect(sent.messages[0]!.content).toMatch(/<\/IMPORTANT>\n\nYou help shoppers\.$/);
    expect(sent.messages[2]!.content).toBe("<tool_call>\n<function=add_to_cart>\n<parameter=sku>\nsocks\n</parameter>\n</function>\n</tool_call>");
    expect(sent.messages[3]!.content).toBe('<tool_response>\n{"ok":true}\n</tool_response>');
  });

  it("aborting calls interruptGenerate and ends with reason aborted", async () => {
    const { engine, calls } = mlcDouble(Array.from({ length: 1000 }, () => "x"));
    const webLlm = new WebLlmEngine({ createEngine: () => engine, importWebLlm: library(new Set()) });
    const controller = new AbortController();
    const events: RawEngineEvent[] = [];
    await webLlm.generate(request, (event) => {
      events.push(event);
      if (event.type === "text") controller.abort();
    }, controller.signal);
    expect(calls.interrupted).toBe(1);
    expect(events.filter((event) => event.type === "text").length).toBeLessThan(5);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "aborted" });
  });

  it("refuses a non-WebGPU model as unsupported_device", async () => {
    const webLlm = new WebLlmEngine({ createEngine: () => mlcDouble([]).engine, importWebLlm: library(new Set()) });
    await expect(webLlm.load({ ...model, device: "wasm" }, () => {})).rejects.toMatchObject({ code: "unsupported_device" });
  });
});
