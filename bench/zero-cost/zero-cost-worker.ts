/// <reference lib="webworker" />
/**
 * The engine worker with the zero-cost engine in place of transformers.js:
 * the same host (worker/engine-host.ts: the step's prompt, the format's
 * parser) exposed the same way (worker/expose-engine-host.ts), so what the
 * zero-cost bench measures is the runtime's own path. Models are never read:
 * the store says every one is here.
 */
import { createEngineHost } from "../../worker/engine-host.js";
import { exposeEngineHost } from "../../worker/expose-engine-host.js";
import { countPortPosts } from "./port-posts.js";
import { ScriptedTokenEngine } from "./scripted-token-engine.js";

countPortPosts();

exposeEngineHost(
  createEngineHost({
    engines: { transformers: () => new ScriptedTokenEngine() },
    store: { cacheStatus: async () => ({ cached: true, bytes: 0 }), download: async () => {}, deleteModel: async () => {} },
    requireCached: false,
  }),
);
