import type { AgentMessage, ToolPart } from "../runtime/session/agent-message.js";
import type { TemplateMessage } from "./model-format.js";
import { toolOutputText } from "../runtime/core/tool-output-text.js";
import { untrustedContentSource, untrustedResponse } from "../runtime/core/untrusted-content.js";

/** The system prompt's first lines: short, since a small model reads every token of it on every step. */
export const BASE_SYSTEM_PROMPT =
  "You are the assistant on this website, running privately on the person's device. " +
  "Use the site's tools to do what the person asks, one step at a time, and answer briefly in plain language. " +
  "Never invent a tool result.";

/** Options for {@link buildTemplateMessages}. */
export interface BuildTemplateMessagesOptions {
  /** The agent's instructions (`agent.instructions`): one line each, under "About this site". */
  instructions?: readonly string[];
  /** Replaces {@link BASE_SYSTEM_PROMPT}. */
  basePrompt?: string;
}

/** The tool response for a call that never finished (a run stopped mid-call). */
export const UNFINISHED_CALL_TEXT = "Error [cancelled]: The call did not finish.";

/**
 * The system message: the base prompt, then an "About this site" section
 * with the agent's non-empty instruction lines. The chat template appends
 * the tools after it.
 */
export function buildSystemPrompt(options: BuildTemplateMessagesOptions = {}): string {
  const base = options.basePrompt ?? BASE_SYSTEM_PROMPT;
  const lines = (options.instructions ?? []).map((line) => line.trim()).filter((line) => line !== "");
  return lines.length === 0 ? base : `${base}\n\n# About this site\n\n${lines.join("\n")}`;
}

/**
 * What a finished (or unfinished) call reports back: the result's text, or its
 * `Error [...]` text. As it is: the worker neutralizes every tool message once,
 * with the model's format (`worker/step-format.ts`).
 */
function toolResponse(part: ToolPart): string {
  if (part.error !== undefined) return part.error;
  if (part.output === undefined) return UNFINISHED_CALL_TEXT;
  const text = toolOutputText(part.output);
  const source = untrustedContentSource(part.output);
  return source === undefined ? text : untrustedResponse(source, text);
}

function toArguments(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/**
 * A conversation in the model's own chat-template shape: the system message,
 * then user text, assistant text, assistant tool calls as `tool_calls`, and
 * one `tool` message per call with its result (a failure as its
 * `Error [...]` text). Reasoning is dropped (Qwen3's template drops past
 * thinking anyway) and so are sub-agents' nested runs: the model sees the
 * delegate call and its result. An assistant message that spans several
 * steps becomes one assistant turn per step, each followed by its results.
 *
 * Pure and deterministic: the same conversation gives the same messages, so
 * each step's prompt extends the previous one byte for byte and the engine
 * can reuse its KV cache.
 */
export function buildTemplateMessages(messages: readonly AgentMessage[], options: BuildTemplateMessagesOptions = {}): TemplateMessage[] {
  const result: TemplateMessage[] = [{ role: "system", content: buildSystemPrompt(options) }];
  for (const message of messages) {
    if (message.role === "user") {
      const content = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
      result.push({ role: "user", content });
      continue;
    }
    let content = "";
    let calls: ToolPart[] = [];
    const flush = () => {
      if (content === "" && calls.length === 0) return;
      result.push({
        role: "assistant",
        content,
        ...(calls.length > 0 && {
          tool_calls: calls.map((call) => ({ type: "function" as const, function: { name: call.name, arguments: toArguments(call.input) } })),
        }),
      });
      for (const call of calls) result.push({ role: "tool", content: toolResponse(call) });
      content = "";
      calls = [];
    };
    for (const part of message.parts) {
      if (part.type === "text") {
        // Text after a step's calls belongs to the next step.
        if (calls.length > 0) flush();
        content += part.text;
      } else if (part.type === "tool") {
        calls.push(part);
      }
    }
    flush();
  }
  return result;
}
