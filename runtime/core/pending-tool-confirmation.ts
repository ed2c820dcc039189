/**
 * The calls the tool policy holds, per realm, and who reads them: the small
 * half of the confirmation gate that a chat needs on its first render. The
 * gate itself (`askToolConfirmation`, tool-confirmation.ts) runs only on a
 * tool call and loads with the tool loop.
 */

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

/** The realm's held calls by call id, and the readers told of every change (see {@link toolConfirmationsChanged}). */
export function toolConfirmationRegistry(): Registry {
  const global = globalThis as { [PENDING]?: Registry };
  return (global[PENDING] ??= { pending: new Map(), readers: new Set() });
}

/** Tells every reader that a confirmation started or ended. */
export function toolConfirmationsChanged(): void {
  for (const reader of [...toolConfirmationRegistry().readers]) reader();
}

/** The confirmation call `callId` waits for, while it waits. */
export function pendingToolConfirmation(callId: string): PendingToolConfirmation | undefined {
  return toolConfirmationRegistry().pending.get(callId);
}

/** Called whenever a confirmation starts or ends. Returns the unsubscribe function. */
export function subscribeToolConfirmations(reader: () => void): () => void {
  toolConfirmationRegistry().readers.add(reader);
  return () => {
    toolConfirmationRegistry().readers.delete(reader);
  };
}
