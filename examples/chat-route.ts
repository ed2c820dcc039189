import type { Plugin } from "vite";
import { createChatHandler, toNodeListener, type ChatHandler } from "../runtime/server/index.js";
import { agents } from "./field-store/agents.js";

/** What `chatRoute` takes. */
export interface ChatRouteOptions {
  /** Where the provider keys and `WEB_AGENTS_MODEL` come from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** A handler to mount instead of the one built from `env` (the tests' mock model). */
  handler?: ChatHandler;
}

/**
 * Mounts the site's `/api/chat` on the examples server: `createChatHandler`
 * with the Field Store's agents (`shopper`, and `orders` through it), the
 * model named by `WEB_AGENTS_MODEL` (default `openai/gpt-5.5`) and its key
 * from the environment. With no key, GET answers `enabled: false` and the
 * chat says "Chat isn't configured on this site."
 */
export function chatRoute(options: ChatRouteOptions = {}): Plugin {
  const env = options.env ?? process.env;
  const handler = options.handler ?? createChatHandler({ model: env.WEB_AGENTS_MODEL ?? "openai/gpt-5.5", env, agents });
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
