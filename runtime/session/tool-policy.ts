import type { WebToolAnnotations } from "../core/define-web-tool.js";
import { getModelContext } from "../core/model-context.js";
import { findRegisteredWebTool } from "../core/web-tool-registry.js";

/**
 * Which page tool calls need the person's confirmation before they run
 * (a tool annotated `readOnlyHint: true` never does):
 *
 * - `"destructive"` (the default): tools annotated `destructiveHint: true`
 *   (or Chromium's `consequentialHint: true`).
 * - `"unannotated"`: those, and tools that say neither `readOnlyHint` nor
 *   `destructiveHint`.
 * - `"all"`: every tool not annotated `readOnlyHint: true`.
 */
export type ConfirmToolsPolicy = "destructive" | "unannotated" | "all";

export const CONFIRM_TOOLS_POLICIES: readonly ConfirmToolsPolicy[] = Object.freeze(["destructive", "unannotated", "all"]);

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
}

/**
 * A site's own answer for a held call: `true` runs it, `false` declines it
 * (the model gets `Error [declined]`), `undefined` asks the person in the
 * chat (Allow / Don't allow); where there is no chat (`agent.invoke`),
 * `undefined` declines.
 */
export type ConfirmTool = (request: ToolConfirmationRequest) => boolean | undefined | Promise<boolean | undefined>;

/** The annotations the policy reads; WebMCP's `consequentialHint` (Chromium) counts as `destructiveHint`. */
export type ToolHints = Pick<WebToolAnnotations, "readOnlyHint" | "destructiveHint"> & { consequentialHint?: boolean };

/** Whether a call of a tool with these `hints` needs the person's confirmation under `policy`. */
export function needsConfirmation(hints: ToolHints, policy: ConfirmToolsPolicy = "destructive"): boolean {
  if (hints.readOnlyHint === true) return false;
  if (hints.destructiveHint === true || hints.consequentialHint === true) return true;
  if (policy === "all") return true;
  const said = typeof hints.readOnlyHint === "boolean" || typeof hints.destructiveHint === "boolean";
  return policy === "unannotated" && !said;
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
    const entry = entries.find((candidate) => (candidate as { name?: unknown } | null)?.name === name) as { annotations?: unknown } | undefined;
    return pickHints(entry?.annotations);
  } catch {
    return {};
  }
}

function pickHints(annotations: unknown): ToolHints {
  if (typeof annotations !== "object" || annotations === null) return {};
  const hints: ToolHints = {};
  for (const key of ["readOnlyHint", "destructiveHint", "consequentialHint"] as const) {
    const value = (annotations as Record<string, unknown>)[key];
    if (typeof value === "boolean") hints[key] = value;
  }
  return hints;
}
