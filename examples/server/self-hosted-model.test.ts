/**
 * The cloud guide's self-hosted model, tried as written against a stand-in:
 * a local server that answers OpenAI's chat completions API as vLLM and
 * SGLang do (streamed chunks, a tool call in `delta.tool_calls`), reached
 * through the AI SDK's OpenAI provider with `.chat(...)`, behind
 * createChatHandler. The handler must send the stand-in the page's tools and
 * stream the model's call back as wire events.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { defineWebAgent } from "@webmcp-agents/chat/agent";
import { createChatHandler } from "@webmcp-agents/chat/server";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface SeenRequest {
  path: string;
  body: { model: string; stream: boolean; tools?: { type: string; function: { name: string } }[]; messages: { role: string }[] };
}

const seen: SeenRequest[] = [];
let server: Server;
let baseURL: string;

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model: "Qwen/Qwen3-8B", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const read = (request: IncomingMessage) =>
  new Promise<string>((done) => {
    let text = "";
    request.on("data", (part: Buffer) => (text += part.toString("utf8")));
    request.on("end", () => done(text));
  });

beforeAll(async () => {
  server = createServer(async (request, response) => {
    seen.push({ path: request.url ?? "", body: JSON.parse(await read(request)) as SeenRequest["body"] });
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(chunk({ role: "assistant", content: "" }));
    response.write(chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "add_to_cart", arguments: "" } }] }));
    response.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"product":"trail socks"}' } }] }));
    response.write(chunk({}, "tool_calls"));
    response.end("data: [DONE]\n\n");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe("a self-hosted OpenAI-compatible model behind createChatHandler", () => {
  it("sends the page's tools to /v1/chat/completions and streams the model's call back", async () => {
    const shopper = defineWebAgent({ id: "shopper", instructions: "You help people shop." });
    const selfHosted = createOpenAI({ baseURL, apiKey: "none" });
    const handler = createChatHandler({ model: selfHosted.chat("Qwen/Qwen3-8B"), label: "Qwen3 8B (our server)", agents: [shopper] });

    const availability = await handler(new Request("http://127.0.0.1/api/chat"));
    expect(await availability.json()).toMatchObject({ enabled: true, label: "Qwen3 8B (our server)" });

    const response = await handler(
      new Request("http://127.0.0.1/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Add trail socks to my cart." }] }],
          tools: [{ name: "add_to_cart", description: "Add a product to the cart.", inputSchema: { type: "object", properties: { product: { type: "string" } }, required: ["product"] } }],
          page: { url: "http://127.0.0.1/" },
          agent: "shopper",
        }),
      }),
    );
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split("\n\n")
      .map((block) => block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join(""))
      .filter(Boolean)
      .map((data) => JSON.parse(data) as { type: string; name?: string; input?: unknown; reason?: string });

    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe("/v1/chat/completions");
    expect(seen[0]!.body).toMatchObject({ model: "Qwen/Qwen3-8B", stream: true });
    expect(seen[0]!.body.tools?.map((tool) => tool.function.name)).toEqual(["add_to_cart"]);
    expect(events.find((event) => event.type === "tool-call")).toMatchObject({ name: "add_to_cart", input: { product: "trail socks" } });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls" });
  });
});
