/**
 * Where a tool call is. `awaiting-confirmation` means it is parked on a
 * control the person must click.
 */
export type ToolCallState = "running" | "awaiting-confirmation" | "done" | "error" | "cancelled";

export const TOOL_CALL_STATES: readonly ToolCallState[] = [
  "running",
  "awaiting-confirmation",
  "done",
  "error",
  "cancelled",
];
