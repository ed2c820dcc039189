/** An error as a report holds it: its message, and its `code` when it has a string one (a `WebAgentsError`). */
export function errorOf(error: unknown): { message: string; code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return { message: error instanceof Error ? error.message : String(error), ...(typeof code === "string" && { code }) };
}
