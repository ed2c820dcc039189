import { emitAgentEvent } from "./agent-events.js";
import { toolConfirmationRegistry as registry, toolConfirmationsChanged as changed, type PendingToolConfirmation } from "./pending-tool-confirmation.js";

export { pendingToolConfirmation, subscribeToolConfirmations, type PendingToolConfirmation } from "./pending-tool-confirmation.js";

/** How a confirmation asked with {@link askToolConfirmation} ended. */
export type ToolConfirmationAnswer = "allowed" | "declined" | "aborted";

/**
 * The tool policy's gate: parks call `callId` of `tool` until the person
 * allows or declines it with the controls a chat attaches (see
 * {@link PendingToolConfirmation.attach}), through the same agent events as
 * `waitForClick`: `park` (with `prompt`) now, `resume` on Allow, `end`
 * (`isError`) on Don't allow. Resolves `"aborted"` when `signal` aborts.
 * Never rejects.
 */
export function askToolConfirmation(request: { tool: string; callId: string; prompt: string; signal?: AbortSignal }): Promise<ToolConfirmationAnswer> {
  const { tool, callId, prompt, signal } = request;
  return new Promise<ToolConfirmationAnswer>((resolve) => {
    if (signal?.aborted) return resolve("aborted");
    const detachers = new Set<() => void>();
    let done = false;
    const finish = (answer: ToolConfirmationAnswer) => {
      if (done) return;
      done = true;
      for (const detach of [...detachers]) detach();
      signal?.removeEventListener("abort", onAbort);
      if (registry().pending.get(callId) === entry) registry().pending.delete(callId);
      changed();
      if (answer === "allowed") emitAgentEvent({ type: "resume", tool, callId });
      else emitAgentEvent({ type: "end", tool, callId, isError: true });
      resolve(answer);
    };
    const onAbort = () => finish("aborted");
    const entry: PendingToolConfirmation = {
      tool,
      callId,
      prompt,
      attach(allow, deny) {
        if (done) return () => {};
        const onAllow = (event: Event) => {
          if (event.isTrusted) finish("allowed");
        };
        const onDeny = (event: Event) => {
          if (event.isTrusted) finish("declined");
        };
        // Capture, so a click on a child counts even if something stops its propagation.
        allow.addEventListener("click", onAllow, { capture: true });
        deny.addEventListener("click", onDeny, { capture: true });
        const detach = () => {
          allow.removeEventListener("click", onAllow, { capture: true });
          deny.removeEventListener("click", onDeny, { capture: true });
          detachers.delete(detach);
        };
        detachers.add(detach);
        emitAgentEvent({ type: "park", tool, callId, prompt, target: allow });
        return detach;
      },
    };
    registry().pending.set(callId, entry);
    signal?.addEventListener("abort", onAbort, { once: true });
    emitAgentEvent({ type: "park", tool, callId, prompt });
    changed();
  });
}
