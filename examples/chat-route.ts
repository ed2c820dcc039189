import type { Plugin } from "vite";
import { createChatHandler, toNodeListener } from "../runtime/server/index.js";

/**
 * Mounts the site's `/api/chat` on the examples server: `createChatHandler`
 * with the model named by `WEB_AGENTS_MODEL` (default `openai/gpt-5.5`) and
 * its key from the environment. With no key, GET answers `enabled: false`
 * and the chat says "Chat isn't configured on this site."
 */
export function chatRoute(env: Readonly<Record<string, string | undefined>> = process.env): Plugin {
  const handler = createChatHandler({ model: env.WEB_AGENTS_MODEL ?? "openai/gpt-5.5", env });
  return {
    name: "web-agents-chat-route",
    configureServer(server) {
      server.middlewares.use("/api/chat", toNodeListener(handler));
    },
    configurePreviewServer(server) {
      server.middlewares.use("/api/chat", toNodeListener(handler));
    },
  };
}
