import type { AgentErrorCode } from "./agent-stream-part.js";

/** The last run's failure, as the session shows it. */
export interface SessionError {
  message: string;
  code?: AgentErrorCode;
}
