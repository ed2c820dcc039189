// /api/chat on Node's own http server. Run with any TypeScript runner, or
// compile it; `OPENAI_API_KEY` (or another provider's key) must be set.
import { createServer } from "node:http";
import { createChatHandler, createRedisCounterStore, toNodeListener } from "@webmcp-agents/chat/server";

import { agents } from "./agents.js";

const handler = createChatHandler({
  model: "openai/gpt-5.5",
  agents,
  session: { secret: process.env.CHAT_SESSION_SECRET ?? "" },
  rateLimit: { requests: 20, windowMs: 60_000 },
  dailyBudget: { tokens: 2_000_000 },
  // Several server instances share one set of counters through Redis.
  ...(process.env.REDIS_URL && { store: createRedisCounterStore(process.env.REDIS_URL) }),
});

const listener = toNodeListener(handler);
createServer((request, response) => {
  if (request.url?.startsWith("/api/chat")) return listener(request, response);
  response.writeHead(404).end();
}).listen(3000, () => console.log("POST http://localhost:3000/api/chat"));
