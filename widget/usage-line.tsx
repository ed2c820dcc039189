import type { ReactNode } from "react";
import type { StepUsage } from "../runtime/session/agent-stream-part.js";
import { useChatLabels } from "./chat-labels-context.js";

/**
 * What the last model step cost, in one muted line under the conversation,
 * where the adapter reports it (the on-device one does): tokens in (and how
 * many came from the cache), tokens out, time to the first token and the
 * decode speed. It says how the device is doing; nothing to act on.
 */
export function UsageLine({ usage }: { usage: StepUsage }): ReactNode {
  const labels = useChatLabels();
  return (
    <p className="usage muted" data-usage="">
      {labels.usage(usage)}
    </p>
  );
}
