import type { EngineHost } from "../../../worker/protocol.js";

declare global {
  interface WorkerOptions {
    /** A SharedWorker kept alive for a while after its last page goes (Chrome 148), so the next page of the site finds its model loaded. */
    extendedLifetime?: boolean;
  }
}

/** Options for {@link loadDefaultEngine}. */
export interface DefaultEngineOptions {
  /**
   * One engine for every tab and page of the origin, in a SharedWorker where
   * the browser has one (see `LocalWorkerOptions.shared`). Default: shared
   * where the page is not cross-origin isolated.
   */
  shared?: boolean;
}

/**
 * The worker client, loaded on first use through a dynamic `import()` so the
 * main entry never loads the worker code or the engines: they come with the
 * first `status()` of a local adapter. The `new Worker(new URL(…,
 * import.meta.url))` and `new SharedWorker(new URL(…, import.meta.url))`
 * forms are the ones bundlers (Vite, webpack) recognise and emit the worker for.
 * Where SharedWorker is missing (feature-detected), `shared` starts a dedicated worker.
 * Unset, it is on unless the page is cross-origin isolated: Chromium gives a
 * SharedWorker no cross-origin isolation of its own, so there ONNX Runtime
 * would run one WASM thread where a dedicated worker runs several.
 * `extendedLifetime` keeps the shared one through a navigation to the next page of
 * the site; a browser without it ends the worker with its last page.
 */
export async function loadDefaultEngine(options: DefaultEngineOptions = {}): Promise<EngineHost> {
  const shared = options.shared ?? !(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  // Both chunks at once: a page that finds the model loaded waits on these fetches, not on the model.
  const [{ createEngineClient }, endpoint] = await Promise.all([
    import("../../../worker/engine-client.js"),
    shared && typeof SharedWorker === "function" ? import("../../../worker/shared-worker-endpoint.js").then((module) => module.sharedWorkerEndpoint) : undefined,
  ]);
  return createEngineClient({
    spawn: endpoint
      ? () => endpoint(new SharedWorker(new URL("../../../worker/engine-worker.ts", import.meta.url), { type: "module", name: "web-agents-engine", extendedLifetime: true }))
      : () => new Worker(new URL("../../../worker/engine-worker.ts", import.meta.url), { type: "module" }),
  });
}
