// The examples server's /api/chat (`npm start`), as a site writes it:
// createChatHandler with the Field Store's agents, the model named by
// WEB_AGENTS_MODEL (default openai/gpt-5.5) and its key from the environment.
// With no key, GET answers `enabled: false` and the chat says "Chat isn't
// configured on this site." examples/chat-route.ts mounts it on Vite.
import { createChatHandler, toNodeListener, type ChatHandler } from "@webmcp-agents/chat/server";

import { agents } from "./agents.js";

/** The examples' `/api/chat` as a Node listener: `handler` when given (the tests' mock model), else the real one from `env`. */
export function examplesChatListener(env: Readonly<Record<string, string | undefined>>, handler?: ChatHandler) {
  return toNodeListener(handler ?? createChatHandler({ model: env.WEB_AGENTS_MODEL ?? "openai/gpt-5.5", env, agents }));
}
