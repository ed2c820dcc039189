/** One block of a tool result's content (MCP `CallToolResult.content`). */
export type ToolContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; text?: string; mimeType?: string } };

/**
 * A tool call's result: an MCP result. `isError` marks a failure; its first
 * text block then starts with a code, for example `Error [invalid_input]: …`.
 */
export interface ModelContextToolResult {
  content: ToolContent[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** What `req.callTool` resolves to: a {@link ModelContextToolResult}. */
export type ToolOutput = ModelContextToolResult;
