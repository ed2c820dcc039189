import type { WebAgent, WebAgentInvokeOptions, WebAgentResult, WebAgentStep } from "../agent/web-agent.js";
import { WebAgentsError } from "../core/web-agents-error.js";
import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentMessage } from "./agent-message.js";
import { createAgentSession } from "./create-agent-session.js";
import { replyText } from "./run-agent-loop.js";

/** Every tool call in `messages`, in order, a sub-agent's included (with `agent` set). */
export function collectSteps(messages: readonly AgentMessage[], agentId?: string): WebAgentStep[] {
  const steps: WebAgentStep[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== "tool") continue;
      steps.push({
        id: part.id,
        tool: part.name,
        input: part.input,
        state: part.state,
        ...(part.output && { output: part.output }),
        ...(part.error !== undefined && { error: part.error }),
        ...(part.prompt !== undefined && { prompt: part.prompt }),
        ...(agentId !== undefined && { agent: agentId }),
      });
      if (part.agent) steps.push(...collectSteps(part.agent.messages, part.agent.id));
    }
  }
  return steps;
}

/**
 * The browser loop behind `agent.invoke`: a fresh, memory-only session for
 * one message, on `options.adapter` (`agent.invoke` supplies the default:
 * `runtime/agent/invoke-web-agent-lazily.ts`). Resolves when the run finishes; rejects with an `AbortError`
 * when `signal` aborts, and with a `WebAgentsError` carrying the adapter's
 * message and code when the run fails.
 */
export async function invokeWebAgent(
  agent: WebAgent,
  text: string,
  options: WebAgentInvokeOptions & { adapter: AgentAdapter },
): Promise<WebAgentResult> {
  const { signal, onStep, adapter } = options;
  // No chat shows this run: a held call is asked of options.confirmTool, else declined.
  const session = createAgentSession(adapter, {
    agent,
    storageKey: false,
    headless: true,
    ...(options.confirmTools !== undefined && { confirmTools: options.confirmTools }),
    ...(options.confirmTool !== undefined && { confirmTool: options.confirmTool }),
  });
  const seen = new Map<string, string>();
  let started = false;

  return new Promise<WebAgentResult>((resolve, reject) => {
    const finish = (settle: () => void) => {
      unsubscribe();
      signal?.removeEventListener("abort", onAbort);
      session.dispose();
      settle();
    };
    const onAbort = () =>
      finish(() => reject(signal?.reason instanceof DOMException ? signal.reason : new DOMException("The run was aborted.", "AbortError")));
    const unsubscribe = session.subscribe(() => {
      if (!started) return;
      const { messages, status, error } = session.getSnapshot();
      if (onStep) {
        for (const step of collectSteps(messages)) {
          const key = `${step.state}:${step.prompt ?? ""}`;
          if (seen.get(step.id) === key) continue;
          seen.set(step.id, key);
          try {
            onStep(step);
          } catch (callbackError) {
            console.error("[web-agents] onStep threw:", callbackError);
          }
        }
      }
      if (status === "streaming") return;
      if (status === "error") {
        finish(() => reject(new WebAgentsError(error?.code ?? "run_failed", error?.message ?? "The run failed.")));
        return;
      }
      if (signal?.aborted) return;
      finish(() => resolve({ text: replyText(messages.slice(1)), steps: collectSteps(messages), messages }));
    });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    started = true;
    session.send(text);
  });
}
