/// <reference lib="webworker" />
/**
 * The module worker entry: the engine host with both engines. Started as a
 * dedicated worker, it exposes the host with comlink on `self`; started as a
 * SharedWorker, it serves every tab of the origin that connects, each port
 * a client (serve-engine-clients.ts). Start it from the main thread with
 * `createEngineClient({ spawn: () => new Worker(new URL("./engine-worker.ts", import.meta.url), { type: "module" }) })`,
 * or `spawn: () => sharedWorkerEndpoint(new SharedWorker(…))`.
 * The engines' libraries load only when a model of their kind is first used.
 * @module
 */
import { createEngineHost } from "./engine-host.js";
import { exposeEngineHost } from "./expose-engine-host.js";
import { createModelCache } from "./model-cache.js";
import { ORT_WASM_PATHS } from "./ort-wasm-paths.js";
import { watchPolicyViolations } from "../runtime/errors/policy-violations.js";
import { serveEngineClients } from "./serve-engine-clients.js";
import { TransformersEngine } from "./transformers-engine.js";
import { WebLlmEngine } from "./web-llm-engine.js";
import { workerAllowsBlobScripts } from "./worker-policy.js";

// A part the worker's Content-Security-Policy blocks is told apart from a broken one by its violation (policy-violations.ts).
watchPolicyViolations();

const host = createEngineHost({
  engines: {
    transformers: () => new TransformersEngine({ wasmPaths: ORT_WASM_PATHS, cacheWasmFiles: workerAllowsBlobScripts }),
    "web-llm": () => new WebLlmEngine(),
  },
  store: createModelCache(),
});

if (typeof SharedWorkerGlobalScope === "function" && self instanceof SharedWorkerGlobalScope) {
  const scope = self;
  // Held for this worker's life: each tab waits on it to learn the worker is gone.
  const workerLock = `web-agents:engine:${crypto.randomUUID()}`;
  const lockHeld = new Promise<void>((granted) => void navigator.locks.request(workerLock, () => (granted(), new Promise<never>(() => {}))));
  const clients = serveEngineClients(host, {
    workerLock,
    clientGone: (client) => navigator.locks.request(client, () => {}),
    restart: () => scope.close(),
  });
  scope.addEventListener("connect", (event) => {
    const [port] = (event as MessageEvent).ports;
    if (port) void lockHeld.then(() => clients.connect(port));
  });
} else {
  exposeEngineHost(host);
}
