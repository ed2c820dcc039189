/**
 * One block of a tool result's content (MCP `CallToolResult.content`). Every
 * kind has `text` (undefined for non-text blocks), so `content[0]?.text`
 * reads the first text without narrowing, as the seeds' examples do.
 */
export type ToolContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string; text?: undefined }
  | { type: "resource"; resource: { uri: string; text?: string; mimeType?: string }; text?: undefined };

/**
 * A tool call's result: an MCP result. `isError` marks a failure; its first
 * text block then starts with a code, for example `Error [invalid_input]: …`.
 */
export interface ModelContextToolResult {
  content: ToolContent[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  /**
   * MCP's extension point. The session sets `UNTRUSTED_CONTENT_META` on the
   * results of tools annotated `untrustedContentHint` (`untrusted-content.ts`).
   */
  _meta?: Record<string, unknown>;
}

/** What `req.callTool` resolves to: a {@link ModelContextToolResult}. */
export type ToolOutput = ModelContextToolResult;
