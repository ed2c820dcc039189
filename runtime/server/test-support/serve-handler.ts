/**
 * Serves a chat handler on 127.0.0.1 through the real toNodeListener, and
 * records every response it produces (status, headers, body) so each test
 * file can scan them for secrets.
 */
import { createServer } from "node:http";
import { expect } from "vitest";
import type { AddressInfo } from "node:net";
import type { AgentMessage } from "../../session/agent-message.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import type { ChatRequestBody } from "../chat-wire.js";
import { toNodeListener, type FetchHandler } from "../to-node-listener.js";

/** Every response any served handler produced in this test file. */
export const seenResponses: string[] = [];
/** The recordings whose body is still being read: each lands in `seenResponses` when its body ends. */
const recordings = new Set<Promise<void>>();

/** Resolves once every response served so far is recorded in `seenResponses`. */
export async function responsesRecorded(): Promise<void> {
  await Promise.all(recordings);
}

/** The secrets the suite configures; none may appear in a response. */
export const SECRETS = {
  openaiKey: "sk-test-SECRET-123",
  sessionSecret: "session-secret-0123456789abcdef-0123456789",
  turnstileSecret: "0x4AAAAAAturnstile-SECRET-456",
} as const;

export interface Served {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/**
 * Reads a copy of a response's body to its end, or until `stop` is called (its server closed
 * on a stream that never ends): then the part sent so far, marked cut.
 */
async function readCopy(body: ReadableStream<Uint8Array> | null, open: Set<() => void>): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let cut = false;
  const stop = () => {
    cut = true;
    void reader.cancel().catch(() => {});
  };
  open.add(stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return cut ? `${text}(body cut)` : text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return `${text}(body cut)`;
  } finally {
    open.delete(stop);
  }
}

/** Starts `handler` on a free port of 127.0.0.1. */
export async function serveHandler(handler: FetchHandler): Promise<Served> {
  const open = new Set<() => void>();
  const recording: FetchHandler = async (request) => {
    const response = await handler(request);
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
    const recorded = readCopy(response.clone().body, open).then((text) => void seenResponses.push(`${response.status}\n${headers}\n\n${text}`));
    recordings.add(recorded);
    void recorded.finally(() => recordings.delete(recorded));
    return response;
  };
  const server = createServer(toNodeListener(recording));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/api/chat`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        // A response still streaming (its model never ends) is recorded as far as it got.
        for (const stop of open) stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A user message. */
export function user(text: string, id = `u-${text.length}`): AgentMessage {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

/** A page tool descriptor. */
export function pageTool(name: string, description = `The ${name} tool.`): ToolDescriptor {
  return { name, description, inputSchema: { type: "object", properties: { id: { type: "string" } } } };
}

/** A POST of `body` as JSON. */
export function postJson(url: string, body: Partial<ChatRequestBody> | string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify({ page: { url: "http://127.0.0.1/" }, tools: [], ...body }),
  });
}

/** Waits for the recordings of responses still streaming, then asserts no secret appears in any. */
export async function expectNoSecretsInResponses(): Promise<void> {
  await responsesRecorded();
  expect(seenResponses.length).toBeGreaterThan(0);
  const all = seenResponses.join("\n---\n");
  for (const secret of Object.values(SECRETS)) expect(all).not.toContain(secret);
}
