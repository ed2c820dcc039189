import type { EngineHost } from "../../../worker/protocol.js";

/**
 * The worker client, loaded on first use through a dynamic `import()` so the
 * main entry never loads the worker code or the engines: they come with the
 * first `status()` of a local adapter. The `new Worker(new URL(…,
 * import.meta.url))` form is the one bundlers (Vite, webpack) recognise and
 * emit the worker for.
 */
export async function loadDefaultEngine(): Promise<EngineHost> {
  const { createEngineClient } = await import("../../../worker/engine-client.js");
  return createEngineClient({
    spawn: () => new Worker(new URL("../../../worker/engine-worker.ts", import.meta.url), { type: "module" }),
  });
}
