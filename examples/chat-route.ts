import { fileURLToPath } from "node:url";
import { runnerImport, type Connect, type Plugin } from "vite";
import type { ChatHandler } from "@webmcp-agents/chat/server";
import { packageAliases } from "./package-aliases.js";

/** What `chatRoute` takes. */
export interface ChatRouteOptions {
  /** Where the provider keys and `WEB_AGENTS_MODEL` come from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** A handler to mount instead of the one built from `env` (the tests' mock model). */
  handler?: ChatHandler;
}

type ChatRouteModule = typeof import("./server/examples-chat-route.js");
type NodeListener = ReturnType<ChatRouteModule["examplesChatListener"]>;

/**
 * Mounts the site's `/api/chat` (examples/server/examples-chat-route.ts) on
 * the examples server. That route imports the package by name, as a site's
 * does; this Vite config runs in Node before any alias applies, where the
 * name would resolve to the built `dist/`, so the route is loaded through
 * Vite's module runner with the package mapped to its source, on the first
 * request.
 */
export function chatRoute(options: ChatRouteOptions = {}): Plugin {
  const env = options.env ?? process.env;
  let listener: Promise<NodeListener> | undefined;
  const load = () =>
    (listener ??= runnerImport<ChatRouteModule>(fileURLToPath(new URL("./server/examples-chat-route.ts", import.meta.url)), {
      resolve: { alias: packageAliases() },
      logLevel: "warn",
    }).then(({ module }) => module.examplesChatListener(env, options.handler)));
  const middleware: Connect.NextHandleFunction = (request, response, next) => {
    load().then((handle) => handle(request, response, next), next);
  };
  return {
    name: "web-agents-chat-route",
    configureServer(server) {
      server.middlewares.use("/api/chat", middleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use("/api/chat", middleware);
    },
  };
}
