import { useSyncExternalStore, type ReactNode } from "react";
import type { FallbackNotice } from "../runtime/adapters/fallback/create-fallback-adapter.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";

const noSubscription = () => () => {};
const none = () => undefined;

/**
 * The one line that tells the person a turn moved to another adapter
 * (`createFallbackAdapter`): "The on-device model stopped (its worker
 * stopped); continuing with Cloud." Shown under the conversation from the
 * switch until the next message is sent; nothing for other adapters.
 */
export function FallbackNoticeLine({ adapter }: { adapter: AgentAdapter & { notice?: () => FallbackNotice | undefined } }): ReactNode {
  // The fallback adapter's subscribe and notice are plain closures (no `this`).
  const read = adapter.notice ?? none;
  const notice = useSyncExternalStore((adapter.notice && adapter.subscribe) || noSubscription, read, read);
  return (
    notice && (
      <p className="usage muted" role="status" data-fallback-notice="">
        {notice.text}
      </p>
    )
  );
}
