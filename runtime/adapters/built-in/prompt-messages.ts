import { toolOutputText } from "../../core/tool-output-text.js";
import { untrustedContentSource, untrustedResponse } from "../../core/untrusted-content.js";
import type { AgentMessage, AgentPart, ToolPart } from "../../session/agent-message.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import type { PromptApiMessage } from "./prompt-api.js";

/**
 * The line the person reads when the conversation outgrew the model's
 * context and its oldest turns were set aside; it opens that step's reply.
 */
export const OVERFLOW_LINE = "(This conversation outgrew the built-in model's memory: it no longer sees the earliest turns.)";

/** The system prompt's first lines: the reply format the constraint enforces, said in words too (the schema itself is not sent as input). */
const BASE_PROMPT = [
  "You are the assistant on this website, running in the person's browser. Use the site's tools to do what the person asks, one step at a time. Never invent a tool result.",
  'Reply with one JSON object and nothing else: {"answer": "..."} to answer the person briefly, in plain language; or {"calls": [{"tool": "<tool name>", "arguments": {...}}]} to call one or more of the tools below, in the order they must run. Their results come back in the next message; then call again or answer.',
].join("\n");

/** One conversation message as the session holds it, and whether the person started a turn with it. */
export interface EncodedMessage {
  message: PromptApiMessage;
  /** The person's own message: where a turn starts, and the oldest turns may be dropped from. */
  turnStart: boolean;
}

const toolLine = (tool: ToolDescriptor) => `- ${tool.name}: ${tool.description.trim()}\n  arguments: ${JSON.stringify(tool.inputSchema ?? {})}`;

/** What a tool is, to the model: its description and schema; a change to either is a changed tool. */
export const toolSignature = (tool: ToolDescriptor) => toolLine(tool);

/** The base session's one system message: the base prompt, the agent's instructions, the tools at the conversation's start. */
export function buildSystemPrompt(instructions: readonly string[], tools: readonly ToolDescriptor[]): string {
  const lines = instructions.map((line) => line.trim()).filter((line) => line !== "");
  const about = lines.length === 0 ? "" : `\n\n# About this site\n\n${lines.join("\n")}`;
  const listed = tools.length === 0 ? "\n\n# Tools\n\nNone right now: answer." : `\n\n# Tools\n\n${tools.map(toolLine).join("\n")}`;
  return `${BASE_PROMPT}${about}${listed}`;
}

/**
 * The note appended when the page's tools changed since the session was
 * told of them (a navigation registers others): the names now offered, the
 * new or changed ones in full, the ones gone. `undefined` when nothing changed.
 */
export function toolChangeNote(known: ReadonlyMap<string, string>, tools: readonly ToolDescriptor[]): string | undefined {
  const changed = tools.filter((tool) => known.get(tool.name) !== toolSignature(tool));
  const names = new Set(tools.map((tool) => tool.name));
  const gone = [...known.keys()].filter((name) => !names.has(name));
  if (changed.length === 0 && gone.length === 0) return undefined;
  const lines = [`[The page's tools changed] You can call now: ${tools.length ? tools.map((tool) => tool.name).join(", ") : "none"}.`];
  if (changed.length) lines.push("New or changed:", ...changed.map(toolLine));
  if (gone.length) lines.push(`No longer available: ${gone.join(", ")}.`);
  return lines.join("\n");
}

/** The note before the closing summary after `maxSteps`: the constraint admits only an answer. */
export const SUMMING_UP_NOTE = "[Step limit reached] Answer the person now with what you have. No more tool calls.";

/** What a call reported: its result, its `Error [...]` text, or that it never finished; an untrusted result marked as data. */
function resultText(part: ToolPart): string {
  if (part.error !== undefined) return part.error;
  if (part.output === undefined) return "Error [cancelled]: The call did not finish.";
  const text = toolOutputText(part.output);
  const source = untrustedContentSource(part.output);
  return source === undefined ? text : untrustedResponse(source, text);
}

const toArguments = (input: unknown) => (typeof input === "object" && input !== null && !Array.isArray(input) ? input : input === undefined ? {} : input);

/**
 * An assistant step as the model wrote it, in the constraint's shape:
 * `{"answer":…}`, `{"calls":[…]}`, or both for a message another adapter
 * wrote. The overflow line is the adapter's, not the model's: left out.
 */
export function assistantContent(text: string, calls: readonly Pick<ToolPart, "name" | "input">[]): string {
  const answer = text.startsWith(OVERFLOW_LINE) ? text.slice(OVERFLOW_LINE.length).replace(/^\n+/, "") : text;
  return JSON.stringify({
    ...(answer !== "" && { answer }),
    ...(calls.length > 0 && { calls: calls.map((call) => ({ tool: call.name, arguments: toArguments(call.input) })) }),
  });
}

/**
 * The conversation as the session's messages, in order and deterministic (the
 * same conversation gives the same messages, so a step finds the ones the
 * session already holds): the person's text; each assistant step as its JSON
 * reply; its calls' results in one user message after it. Reasoning and
 * sub-agents' nested runs are left out.
 */
export function encodeConversation(messages: readonly AgentMessage[]): EncodedMessage[] {
  const encoded: EncodedMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const content = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
      encoded.push({ message: { role: "user", content }, turnStart: true });
      continue;
    }
    let text = "";
    let calls: ToolPart[] = [];
    const flush = () => {
      if (text === "" && calls.length === 0) return;
      encoded.push({ message: { role: "assistant", content: assistantContent(text, calls) }, turnStart: false });
      if (calls.length > 0) encoded.push({ message: { role: "user", content: calls.map((call) => `[Result of ${call.name}]\n${resultText(call)}`).join("\n\n") }, turnStart: false });
      text = "";
      calls = [];
    };
    for (const part of message.parts as AgentPart[]) {
      if (part.type === "text") {
        // Text after a step's calls belongs to the next step.
        if (calls.length > 0) flush();
        text += part.text;
      } else if (part.type === "tool") calls.push(part);
    }
    flush();
  }
  return encoded;
}

/** A message's identity, to tell which ones a session already holds. */
export const messageKey = (message: PromptApiMessage) => `${message.role}\u0000${message.content}`;
