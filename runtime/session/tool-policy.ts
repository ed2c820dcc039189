import type { WebToolAnnotations } from "../core/define-web-tool.js";
import { getModelContext } from "../core/model-context.js";
import { findRegisteredWebTool } from "../core/web-tool-registry.js";

import type { ConfirmToolsPolicy } from "./confirm-tools-policy.js";

export { CONFIRM_TOOLS_POLICIES, type ConfirmToolsPolicy } from "./confirm-tools-policy.js";

/** A call the policy holds, as a site's `confirmTool` sees it. */
export interface ToolConfirmationRequest {
  /** The tool's name. */
  tool: string;
  /** The model's id for this call. */
  callId: string;
  /** The call's input, as the model gave it (not yet validated). */
  input: unknown;
  /** The tool's annotations, as the page declared them. */
  annotations: ToolHints;
  /**
   * The turn has read content the site does not vouch for (a result of a
   * tool annotated `untrustedContentHint`): the call may come from that
   * content rather than from the person. A site that answers `true` for it
   * takes that risk.
   */
  untrustedContent: boolean;
}

/**
 * A site's own answer for a held call: `true` runs it, `false` declines it
 * (the model gets `Error [declined]`), `undefined` asks the person in the
 * chat (Allow / Don't allow); where there is no chat (`agent.invoke`),
 * `undefined` declines.
 */
export type ConfirmTool = (request: ToolConfirmationRequest) => boolean | undefined | Promise<boolean | undefined>;

/** The annotations the policy reads: WebMCP's three, and MCP's `destructiveHint` (read as `consequentialHint`). */
export type ToolHints = Pick<WebToolAnnotations, "readOnlyHint" | "consequentialHint" | "untrustedContentHint" | "destructiveHint">;

/** Why a call waits for the person: its annotations under the policy, or untrusted content read earlier in the turn. */
export type ConfirmationReason = "annotations" | "untrusted-content";

/**
 * Why a call of a tool with these `hints` needs the person's confirmation
 * under `policy`, or `undefined` when it may run. `untrustedContent`: the
 * turn has read a result of an `untrustedContentHint` tool.
 */
export function confirmationReason(hints: ToolHints, policy: ConfirmToolsPolicy = "consequential", untrustedContent = false): ConfirmationReason | undefined {
  if (hints.readOnlyHint === true) return undefined;
  if (hints.consequentialHint === true || hints.destructiveHint === true) return "annotations";
  if (policy === "all") return "annotations";
  const said = typeof hints.readOnlyHint === "boolean" || typeof hints.consequentialHint === "boolean" || typeof hints.destructiveHint === "boolean";
  if (policy === "unannotated" && !said) return "annotations";
  return untrustedContent ? "untrusted-content" : undefined;
}

/** Whether a call of a tool with these `hints` needs the person's confirmation under `policy` (see {@link confirmationReason}). */
export function needsConfirmation(hints: ToolHints, policy: ConfirmToolsPolicy = "consequential", untrustedContent = false): boolean {
  return confirmationReason(hints, policy, untrustedContent) !== undefined;
}

/**
 * The annotations of the page tool `name` right now: this window's
 * `registerWebTool` tool's, else the `document.modelContext.getTools()`
 * entry's. `{}` when there is no such tool (the call then fails as
 * `unknown_tool` without running) or no WebMCP.
 */
export async function readToolHints(name: string): Promise<ToolHints> {
  const own = findRegisteredWebTool(name);
  if (own) return pickHints(own.annotations);
  try {
    const entries = await getModelContext().getTools();
    // By property: Chrome 160's Tool objects hold their attributes on the prototype (annotations may be null).
    const entry = entries.find((candidate) => (candidate as { name?: unknown } | null)?.name === name) as { annotations?: unknown } | undefined;
    return pickHints(entry?.annotations);
  } catch {
    return {};
  }
}

function pickHints(annotations: unknown): ToolHints {
  if (typeof annotations !== "object" || annotations === null) return {};
  const hints: ToolHints = {};
  for (const key of ["readOnlyHint", "consequentialHint", "untrustedContentHint", "destructiveHint"] as const) {
    const value = (annotations as Record<string, unknown>)[key];
    if (typeof value === "boolean") hints[key] = value;
  }
  return hints;
}
