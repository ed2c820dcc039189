import { readFileSync } from "node:fs";
import type { BrowserContext, CDPSession } from "playwright-core";

/** One snapshot of the browser's memory, in bytes. */
export interface MemorySnapshot {
  /** Engine worker targets (scripts named `engine-worker-*.js`, dedicated `worker` or `shared_worker`). */
  engineWorkers: number;
  /** Their V8 heaps after a full GC (CDP Runtime.getHeapUsage, usedSize): live JavaScript, the tokenizer included. */
  engineJsHeap: number;
  /**
   * Proportional set size of every renderer process, summed (from
   * /proc/<pid>/smaps_rollup, after a full GC in every page and worker):
   * what the OS holds for the pages and their workers, ONNX Runtime's
   * WebAssembly memory (the weights) included. V8's heap statistics leave
   * WebAssembly memory out (getHeapUsage's backingStorageSize stays at 28.5
   * MB a worker for test-tiny and for the 764 MB 0.6B-shaped model alike), so
   * only the processes' own figure shows the model.
   */
  rendererPss: number;
}

/**
 * Sends `method` to a target over the browser's session. Playwright gives a
 * browser-wide session but no way to address a flattened child session, so
 * targets are attached without flattening and reached through
 * Target.sendMessageToTarget.
 */
function targetCaller(cdp: CDPSession) {
  let lastId = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  cdp.on("Target.receivedMessageFromTarget", (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
  });
  return <T>(sessionId: string, method: string, params: object = {}): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
}

/** Pss of a process in bytes, or 0 where it is gone. */
function processPss(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const isEngineWorker = (target: { type: string; url: string }): boolean => (target.type === "worker" || target.type === "shared_worker") && /engine-worker/.test(target.url);

/** The target types (`worker`, `shared_worker`) of the engine workers running in the context's browser. */
export async function engineWorkerTypes(context: BrowserContext): Promise<string[]> {
  const browser = context.browser();
  if (!browser) throw new Error("engineWorkerTypes needs the context's browser, for a browser-wide CDP session.");
  const cdp = await browser.newBrowserCDPSession();
  try {
    return (await cdp.send("Target.getTargets")).targetInfos.filter(isEngineWorker).map((target) => target.type);
  } finally {
    await cdp.detach();
  }
}

/**
 * A full garbage collection in every page and worker of the context's
 * browser, then the engine workers' JS heaps and the renderers' PSS.
 * Chromium runs a page's dedicated worker in the page's renderer process and
 * a SharedWorker in a renderer of its own or a page's: no process is the
 * engine's alone, so the engines' memory is the difference between two
 * snapshots (see two-tab-memory.ts).
 */
export async function memorySnapshot(context: BrowserContext): Promise<MemorySnapshot> {
  const browser = context.browser();
  if (!browser) throw new Error("memorySnapshot needs the context's browser, for a browser-wide CDP session.");
  const cdp = await browser.newBrowserCDPSession();
  try {
    const call = targetCaller(cdp);
    const { targetInfos } = await cdp.send("Target.getTargets");
    const snapshot: MemorySnapshot = { engineWorkers: 0, engineJsHeap: 0, rendererPss: 0 };
    for (const target of targetInfos.filter((target) => ["page", "worker", "shared_worker"].includes(target.type))) {
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
      try {
        await call(sessionId, "HeapProfiler.collectGarbage");
        if (!isEngineWorker(target)) continue;
        snapshot.engineWorkers += 1;
        snapshot.engineJsHeap += (await call<{ usedSize: number }>(sessionId, "Runtime.getHeapUsage")).usedSize;
      } finally {
        await cdp.send("Target.detachFromTarget", { sessionId });
      }
    }
    const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
    for (const process of processInfo) if (process.type === "renderer") snapshot.rendererPss += processPss(process.id);
    return snapshot;
  } finally {
    await cdp.detach();
  }
}
