// Its own file: the session store checks an option against the list on the
// first render, while the policy's code loads with the agent loop (lazily).

/**
 * Which page tool calls need the person's confirmation before they run
 * (a tool annotated `readOnlyHint: true` never does):
 *
 * - `"consequential"` (the default): tools annotated `consequentialHint:
 *   true` (WebMCP's name), or MCP's `destructiveHint: true`.
 * - `"destructive"`: the same, under MCP's name (an alias).
 * - `"unannotated"`: those, and tools that say neither `readOnlyHint` nor
 *   `consequentialHint` / `destructiveHint`.
 * - `"all"`: every tool not annotated `readOnlyHint: true`.
 *
 * Whatever the policy, once a turn has read a result of a tool annotated
 * `untrustedContentHint`, every later call in that turn that is not
 * `readOnlyHint` waits for the person too.
 */
export type ConfirmToolsPolicy = "consequential" | "destructive" | "unannotated" | "all";

export const CONFIRM_TOOLS_POLICIES: readonly ConfirmToolsPolicy[] = Object.freeze(["consequential", "destructive", "unannotated", "all"]);
