import { useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { pendingToolConfirmation, subscribeToolConfirmations, type PendingToolConfirmation } from "../runtime/core/pending-tool-confirmation.js";
import { useChatLabels } from "./chat-labels-context.js";

/** The tool policy's pending confirmation of call `callId`, kept current: `undefined` unless the call is held. */
export function useHeldCall(callId: string): PendingToolConfirmation | undefined {
  return useSyncExternalStore(subscribeToolConfirmations, () => pendingToolConfirmation(callId), () => undefined);
}

/**
 * Allow / Don't allow for a call the tool policy holds (the session's
 * `confirmTools`): only the person's own (trusted) click on one of them
 * answers; a script's `element.click()` does nothing.
 */
export function ToolConfirmButtons({ held }: { held: PendingToolConfirmation }): ReactNode {
  const allow = useRef<HTMLButtonElement>(null);
  const deny = useRef<HTMLButtonElement>(null);
  const labels = useChatLabels();
  useEffect(() => held.attach(allow.current!, deny.current!), [held]);
  return (
    <div className="confirm" role="group" aria-label={labels.confirmGroup}>
      <button type="button" className="allow primary" ref={allow}>
        {labels.allow}
      </button>
      <button type="button" className="deny" ref={deny}>
        {labels.deny}
      </button>
    </div>
  );
}
