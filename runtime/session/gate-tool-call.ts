import { askToolConfirmation } from "../core/tool-confirmation.js";
import { toolErrorOutput } from "../core/tool-error-output.js";
import type { ToolOutput } from "../core/tool-output.js";
import type { ToolCallRequest } from "./agent-adapter.js";
import { whileAsking } from "./held-call-question.js";
import { confirmationReason, type ConfirmTool, type ConfirmToolsPolicy, type ToolHints } from "./tool-policy.js";

/** How a session applies the tool policy. */
export interface ToolGate {
  /** Default `"consequential"`. */
  confirmTools?: ConfirmToolsPolicy;
  /** The site's own answer, asked first. */
  confirmTool?: ConfirmTool;
  /** No chat can show Allow / Don't allow (`agent.invoke`): a call the site does not answer is declined. */
  headless?: boolean;
}

const words = (name: string) => name.replace(/[_.-]+/g, " ").trim();

/**
 * The tool policy in front of one page tool call with these `annotations`:
 * `undefined` when the call may run, else the output that ends it
 * (`Error [declined]`, or `Error [cancelled]` when `signal` aborts while the
 * person is asked). `untrustedContent`: the turn has read a result of an
 * `untrustedContentHint` tool, so any call not `readOnlyHint` is held. Held
 * calls are asked of `gate.confirmTool`, then of the person through the
 * chat's parked-call view (`askToolConfirmation`). Never rejects.
 */
export async function gateToolCall(
  call: ToolCallRequest,
  annotations: ToolHints,
  gate: ToolGate,
  signal: AbortSignal,
  untrustedContent = false,
): Promise<ToolOutput | undefined> {
  const reason = confirmationReason(annotations, gate.confirmTools, untrustedContent);
  if (reason === undefined) return undefined;
  let answer: boolean | undefined;
  try {
    answer = await gate.confirmTool?.({ tool: call.name, callId: call.id, input: call.input, annotations, untrustedContent });
  } catch (error) {
    console.error(`[web-agents] confirmTool threw for ${call.name}; the call is declined:`, error);
    answer = false;
  }
  if (signal.aborted) return toolErrorOutput("cancelled", `The call to ${call.name} was stopped before it ran.`);
  if (answer === true) return undefined;
  if (answer === false) return declined(call.name);
  if (gate.headless) {
    warnHeadless(call.name);
    return toolErrorOutput(
      "declined",
      `${call.name} needs the person's confirmation, and there was no one to ask, so it did not run. Tell the person what you wanted to do.`,
    );
  }
  const action = words(call.name);
  const prompt =
    reason === "untrusted-content"
      ? `The assistant wants to ${action} after reading content this site does not vouch for. Allow it?`
      : `The assistant wants to ${action}. Allow it?`;
  const result = await whileAsking(call.id, { action, reason }, () => askToolConfirmation({ tool: call.name, callId: call.id, prompt, signal }));
  if (result === "allowed") return undefined;
  if (result === "aborted") return toolErrorOutput("cancelled", `The call to ${call.name} was stopped before it ran.`);
  return declined(call.name);
}

function declined(tool: string): ToolOutput {
  return toolErrorOutput("declined", `The person did not allow ${tool}, so it did not run. Do not call it again unless they ask for it.`);
}

const warned = new Set<string>();
function warnHeadless(tool: string): void {
  if (warned.has(tool)) return;
  warned.add(tool);
  console.warn(
    `[web-agents] ${tool} needs the person's confirmation (its annotations), and agent.invoke has no chat to ask in, so the call was declined. ` +
      `Pass confirmTool to agent.invoke to ask the person in your own UI, or return true for a tool that confirms itself with waitForClick.`,
  );
}
