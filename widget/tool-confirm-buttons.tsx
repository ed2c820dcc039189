import { useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { pendingToolConfirmation, subscribeToolConfirmations } from "../runtime/core/tool-confirmation.js";

/**
 * Allow / Don't allow for a call the tool policy holds (the session's
 * `confirmTools`): the person's own (trusted) click on one of them answers;
 * a script's `element.click()` does nothing. Renders nothing for a call that
 * is not held.
 */
export function ToolConfirmButtons({ callId }: { callId: string }): ReactNode {
  const pending = useSyncExternalStore(
    subscribeToolConfirmations,
    () => pendingToolConfirmation(callId),
    () => undefined,
  );
  const allow = useRef<HTMLButtonElement>(null);
  const deny = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!pending || !allow.current || !deny.current) return;
    return pending.attach(allow.current, deny.current);
  }, [pending]);
  if (!pending) return null;
  return (
    <div className="confirm" role="group" aria-label="Allow this step?" style={{ display: "flex", gap: 6, flexWrap: "wrap" }}>
      <button type="button" className="allow primary" ref={allow}>
        Allow
      </button>
      <button type="button" className="deny" ref={deny}>
        Don't allow
      </button>
    </div>
  );
}

/** Whether call `callId` is held by the tool policy, kept current. */
export function useHeldByPolicy(callId: string): boolean {
  return useSyncExternalStore(
    subscribeToolConfirmations,
    () => pendingToolConfirmation(callId) !== undefined,
    () => false,
  );
}
