import type { ReactNode } from "react";
import type { SessionError } from "../runtime/session/session-error.js";
import { useChatLabels } from "./chat-labels-context.js";
import { adviseRunError } from "./explain-run-error.js";

/** What `<RunError>` takes. */
export interface RunErrorProps {
  error: SessionError;
  onRetry: () => void;
  /** Another adapter the person may switch to (with `adapters`), offered when the code says this one cannot go on. */
  alternative?: { label: string; onSelect: () => void } | undefined;
}

/**
 * A failed run: what it means (from its code), the adapter's own message
 * when it says more, and the next steps its code calls for: Try again, which
 * resumes the turn from its last finished tool call, and/or "Use <other
 * adapter>" (the cloud, when the device cannot go on).
 */
export function RunError({ error, onRetry, alternative }: RunErrorProps): ReactNode {
  const labels = useChatLabels();
  const advice = adviseRunError(error, labels);
  const offerSwitch = advice.switchAdapter && alternative !== undefined;
  return (
    <div className="error" role="alert" data-code={error.code}>
      <p>
        <strong>{advice.explanation}</strong>
      </p>
      {/* The adapter's own message, in the runtime's words (English). */}
      {advice.explanation !== error.message && (
        <p className="muted" lang="en">
          {error.message}
        </p>
      )}
      {(advice.retry || offerSwitch) && (
        <div className="row">
          {advice.retry && (
            <button type="button" onClick={onRetry}>
              {labels.tryAgain}
            </button>
          )}
          {offerSwitch && (
            <button type="button" onClick={alternative.onSelect}>
              {labels.useAdapter(alternative.label)}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
