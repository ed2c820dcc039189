import { z } from "zod";
import { AGENT_ID } from "../agent/index.js";
import { ChatHttpError } from "./chat-http-error.js";
import type { ChatRequestBody } from "./chat-wire.js";
import { jsonNestingDepth } from "./json-nesting-depth.js";

/**
 * The deepest nesting of arrays and objects a request body may have, counted
 * from the body itself (a tool's `inputSchema` starts 3 levels down, a tool
 * call's `input` 5). Deeper bodies are a 400: the JSON tools downstream (the
 * token estimate, the providers' SDKs) recurse, and 64 levels is far beyond
 * any real tool schema.
 */
export const MAX_JSON_DEPTH = 64;

/** The bounds {@link readChatRequest} enforces. */
export interface ChatRequestLimits {
  /** Bytes of body. */
  maxBodyBytes: number;
  /** Entries in `messages`. */
  maxMessages: number;
  /** Entries in `tools`. */
  maxTools: number;
}

const jsonObject = z.record(z.string(), z.unknown());

const toolOutput = z.object({
  // Blocks stay loose: unknown kinds are skipped when converted, not refused.
  content: z.array(z.looseObject({ type: z.string() })),
  isError: z.boolean().optional(),
  structuredContent: jsonObject.optional(),
  // MCP's extension point: the page marks untrusted content here (runtime/core/untrusted-content.ts).
  _meta: jsonObject.optional(),
});

const part = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("reasoning"), text: z.string(), providerMetadata: jsonObject.optional() }),
  z.object({
    type: z.literal("tool"),
    id: z.string().min(1).max(256),
    name: z.string().min(1).max(128),
    input: z.unknown(),
    state: z.enum(["running", "awaiting-confirmation", "done", "error", "cancelled"]),
    output: toolOutput.optional(),
    error: z.string().optional(),
    prompt: z.string().optional(),
    providerMetadata: jsonObject.optional(),
  }),
]);

const message = z.object({
  id: z.string().max(256),
  role: z.enum(["user", "assistant"]),
  parts: z.array(part),
});

const tool = z.object({
  name: z.string().min(1).max(128),
  description: z.string(),
  inputSchema: jsonObject,
  title: z.string().max(256).optional(),
  outputSchema: jsonObject.optional(),
});

function requestSchema(limits: ChatRequestLimits) {
  return z.object({
    messages: z
      .array(message)
      .min(1, "send at least one message")
      .max(limits.maxMessages, `at most ${limits.maxMessages} messages are accepted; drop the oldest`),
    tools: z
      .array(tool)
      .max(limits.maxTools, `at most ${limits.maxTools} tools are accepted`)
      .refine((tools) => new Set(tools.map((entry) => entry.name)).size === tools.length, "tool names must be unique"),
    page: z.object({ url: z.string().max(4096) }).optional(),
    agent: z.string().regex(AGENT_ID, "an agent id is 1 to 64 of a-z A-Z 0-9 _ . -").optional(),
    step: z.number().int().nonnegative().optional(),
  });
}

/**
 * Reads and checks a POST body: `content-type: application/json` (else 415),
 * at most `maxBodyBytes` bytes (else 413, without reading past the limit),
 * valid UTF-8 JSON nested at most {@link MAX_JSON_DEPTH} levels, in the shape
 * of {@link ChatRequestBody} within the message and tool counts (else 400 with
 * what is wrong).
 *
 * @throws ChatHttpError for every refusal.
 */
export async function readChatRequest(request: Request, limits: ChatRequestLimits): Promise<ChatRequestBody> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new ChatHttpError(415, "unsupported_media_type", "Send the body as JSON, with content-type: application/json.");
  }
  const bytes = await readLimitedBody(request, limits.maxBodyBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ChatHttpError(400, "bad_request", "The body is not valid JSON (UTF-8).");
  }
  if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ChatHttpError(
      400,
      "bad_request",
      `The request nests JSON more than ${MAX_JSON_DEPTH} levels deep; flatten the tool's input schema or the tool call's input.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ChatHttpError(400, "bad_request", "The body is not valid JSON (UTF-8).");
  }
  const parsed = requestSchema(limits).safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 3).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new ChatHttpError(400, "bad_request", `The request is malformed: ${problems.join("; ")}.`);
  }
  return parsed.data as ChatRequestBody;
}

const tooLarge = (limit: number) =>
  new ChatHttpError(413, "payload_too_large", `The request is over ${limit} bytes; start a new conversation.`);

async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "body";
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("");
}
