import type { ReactNode } from "react";
import type { SessionError } from "../runtime/session/session-error.js";
import { explainRunError } from "./explain-run-error.js";

/** What `<RunError>` takes. */
export interface RunErrorProps {
  error: SessionError;
  onRetry: () => void;
}

/**
 * A failed run: what it means (from its code), the adapter's own message
 * when it says more, and Try again, which resumes the turn from its last
 * finished tool call.
 */
export function RunError({ error, onRetry }: RunErrorProps): ReactNode {
  const explanation = explainRunError(error);
  return (
    <div className="error" role="alert" data-code={error.code}>
      <p>
        <strong>{explanation}</strong>
      </p>
      {explanation !== error.message && <p className="muted">{error.message}</p>}
      <div className="row">
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    </div>
  );
}
