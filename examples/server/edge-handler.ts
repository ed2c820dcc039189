// /api/chat on an edge runtime or any platform that speaks the Fetch API
// (Cloudflare Workers, Deno, Bun, Vercel and Next.js route handlers).
import { createChatHandler } from "@webmcp-agents/chat/server";

import { agents } from "./agents.js";

const handler = createChatHandler({ model: "anthropic/claude-sonnet-5-5", agents });

// Next.js / Vercel route handlers:
export const GET = handler;
export const POST = handler;

// Cloudflare Workers, Deno and Bun:
export default { fetch: handler };
