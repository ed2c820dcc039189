import { useCallback, useSyncExternalStore, type ReactNode } from "react";
import type { FallbackNotice } from "../runtime/adapters/fallback/create-fallback-adapter.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";

type WithNotice = AgentAdapter & { notice(): FallbackNotice | undefined };
const hasNotice = (adapter: AgentAdapter): adapter is WithNotice => typeof (adapter as Partial<WithNotice>).notice === "function";
const noSubscription = () => () => {};
const none = () => undefined;

/**
 * The one line that tells the person a turn moved to another adapter
 * (`createFallbackAdapter`): "The on-device model stopped (its worker
 * stopped); continuing with Cloud." Shown under the conversation from the
 * switch until the next message is sent; nothing for other adapters.
 */
export function FallbackNoticeLine({ adapter }: { adapter: AgentAdapter }): ReactNode {
  const withNotice = hasNotice(adapter) ? adapter : undefined;
  const subscribe = useCallback((listener: () => void) => withNotice?.subscribe?.(listener) ?? (() => {}), [withNotice]);
  const notice = useSyncExternalStore(withNotice ? subscribe : noSubscription, withNotice ? withNotice.notice : none, withNotice ? withNotice.notice : none);
  if (!notice) return null;
  return (
    <p className="usage muted" role="status" data-fallback-notice="">
      {notice.text}
    </p>
  );
}
