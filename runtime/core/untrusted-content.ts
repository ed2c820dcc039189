import type { ToolOutput } from "./tool-output.js";

/**
 * The `_meta` key that marks a result as content the site does not vouch
 * for: set on results of tools annotated `untrustedContentHint`, read by
 * every prompt builder (on the device: a visible marker inside the tool
 * response; on the cloud path: the result sent as data that says so). Its
 * value names the tool.
 */
export const UNTRUSTED_CONTENT_META = "webmcp-agents/untrustedContent";

/** `output`, marked as untrusted content from `tool` (a copy; the output itself is not changed). */
export function markUntrustedContent(output: ToolOutput, tool: string): ToolOutput {
  return { ...output, _meta: { ...output._meta, [UNTRUSTED_CONTENT_META]: { tool } } };
}

/** The tool whose untrusted content `output` carries, or `undefined` for a result the site vouches for. */
export function untrustedContentSource(output: ToolOutput | undefined): string | undefined {
  const mark = output?._meta?.[UNTRUSTED_CONTENT_META];
  if (typeof mark !== "object" || mark === null) return undefined;
  const tool = (mark as { tool?: unknown }).tool;
  return typeof tool === "string" ? tool : "a tool";
}
