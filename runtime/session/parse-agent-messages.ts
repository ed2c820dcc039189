import type { AgentMessage, AgentPart } from "./agent-message.js";
import { TOOL_CALL_STATES } from "./tool-call-state.js";

type Record_ = Record<string, unknown>;

const isRecord = (value: unknown): value is Record_ =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks that `value` is an `AgentMessage[]` of the documented shape and
 * returns it. Throws a `TypeError` that names the first offending path, so a
 * bad conversation is refused whole, never half-applied.
 */
export function parseAgentMessages(value: unknown, where = "messages"): AgentMessage[] {
  if (!Array.isArray(value)) throw new TypeError(`${where} must be an array of AgentMessage.`);
  value.forEach((message, index) => checkMessage(message, `${where}[${index}]`));
  return value as AgentMessage[];
}

function checkMessage(message: unknown, path: string): void {
  if (!isRecord(message)) throw new TypeError(`${path} must be an object { id, role, parts }.`);
  if (typeof message.id !== "string" || message.id === "") {
    throw new TypeError(`${path}.id must be a non-empty string.`);
  }
  if (message.role !== "user" && message.role !== "assistant") {
    throw new TypeError(`${path}.role must be "user" or "assistant".`);
  }
  if (!Array.isArray(message.parts)) throw new TypeError(`${path}.parts must be an array.`);
  message.parts.forEach((part, index) => checkPart(part, `${path}.parts[${index}]`));
}

function checkPart(part: unknown, path: string): asserts part is AgentPart {
  if (!isRecord(part)) throw new TypeError(`${path} must be an object with a type.`);
  switch (part.type) {
    case "text":
    case "reasoning":
      if (typeof part.text !== "string") throw new TypeError(`${path}.text must be a string.`);
      return;
    case "tool":
      checkToolPart(part, path);
      return;
    default:
      throw new TypeError(`${path}.type must be "text", "reasoning" or "tool".`);
  }
}

function checkToolPart(part: Record_, path: string): void {
  if (typeof part.id !== "string" || part.id === "") throw new TypeError(`${path}.id must be a non-empty string.`);
  if (typeof part.name !== "string" || part.name === "") {
    throw new TypeError(`${path}.name must be a non-empty string.`);
  }
  if (!TOOL_CALL_STATES.includes(part.state as never)) {
    throw new TypeError(`${path}.state must be one of ${TOOL_CALL_STATES.join(", ")}.`);
  }
  if (part.output !== undefined && !(isRecord(part.output) && Array.isArray(part.output.content))) {
    throw new TypeError(`${path}.output must be a tool result { content: [...] }.`);
  }
  if (part.error !== undefined && typeof part.error !== "string") throw new TypeError(`${path}.error must be a string.`);
  if (part.errorCode !== undefined && typeof part.errorCode !== "string") throw new TypeError(`${path}.errorCode must be a string.`);
  if (part.prompt !== undefined && typeof part.prompt !== "string") {
    throw new TypeError(`${path}.prompt must be a string.`);
  }
  if (part.agent !== undefined) {
    if (!isRecord(part.agent) || typeof part.agent.id !== "string") {
      throw new TypeError(`${path}.agent must be { id, messages }.`);
    }
    parseAgentMessages(part.agent.messages, `${path}.agent.messages`);
  }
}
