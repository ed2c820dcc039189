import { emitAgentEvent } from "./agent-events.js";

/** How a confirmation asked with {@link askToolConfirmation} ended. */
export type ToolConfirmationAnswer = "allowed" | "declined" | "aborted";

/** A call waiting for the person's Allow or Don't allow. */
export interface PendingToolConfirmation {
  readonly tool: string;
  readonly callId: string;
  /** What the person reads: what the call would do. */
  readonly prompt: string;
  /**
   * Hands the gate its two controls: only a trusted click (`event.isTrusted`)
   * on `allow` or `deny` (or inside it) answers; a script's `element.click()`
   * does not. The call's `park` event is sent again with `allow` as its
   * target, so the cursor points there. Returns a function that takes the
   * controls back (the view unmounting); the call stays pending.
   */
  attach(allow: Element, deny: Element): () => void;
}

// Per realm, shared by every copy of this module, like the agent event bus.
const PENDING = Symbol.for("webmcp-agents.tool-confirmations");

interface Registry {
  pending: Map<string, PendingToolConfirmation>;
  readers: Set<() => void>;
}

function registry(): Registry {
  const global = globalThis as { [PENDING]?: Registry };
  return (global[PENDING] ??= { pending: new Map(), readers: new Set() });
}

function changed(): void {
  for (const reader of [...registry().readers]) reader();
}

/** The confirmation call `callId` waits for, while it waits. */
export function pendingToolConfirmation(callId: string): PendingToolConfirmation | undefined {
  return registry().pending.get(callId);
}

/** Called whenever a confirmation starts or ends. Returns the unsubscribe function. */
export function subscribeToolConfirmations(reader: () => void): () => void {
  registry().readers.add(reader);
  return () => {
    registry().readers.delete(reader);
  };
}

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
