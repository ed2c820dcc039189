import type { ReactNode } from "react";
import type { StepUsage } from "../runtime/session/agent-stream-part.js";

/** `1.2 s`, `350 ms`. */
const duration = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/**
 * What the last model step cost, in one muted line under the conversation,
 * where the adapter reports it (the on-device one does): tokens in (and how
 * many came from the cache), tokens out, time to the first token and the
 * decode speed. It says how the device is doing; nothing to act on.
 */
export function UsageLine({ usage }: { usage: StepUsage }): ReactNode {
  const parts = [
    `${usage.promptTokens} tokens in${usage.cachedPromptTokens ? ` (${usage.cachedPromptTokens} reused)` : ""}`,
    `${usage.outputTokens} out`,
    ...(usage.timeToFirstTokenMs ? [`first token in ${duration(usage.timeToFirstTokenMs)}`] : []),
    ...(usage.decodeTokensPerSecond ? [`${usage.decodeTokensPerSecond.toFixed(1)} tokens/s`] : []),
  ];
  return (
    <p className="usage muted" data-usage="">
      {parts.join(" · ")}
    </p>
  );
}
