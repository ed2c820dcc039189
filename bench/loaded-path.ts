// A bench path loaded in its worker (run-bench-page.ts runs them), and the raw paths' loader.
import type { GenerationSample, ToolLoopSample } from "./bench-types.js";
import { longTaskRecorder, type LongTaskRecord } from "./long-task-recorder.js";
import { callWorker } from "./worker-rpc.js";

/** What a worker path reports of one generation. */
export interface Generated {
  promptTokens: number;
  outputTokens: number;
  text: string;
  workerTtftMs: number;
  workerDecodeTokPerS: number;
}

/** Page-side timing of one generation: `first` is when output first arrived. */
export function generationSample(started: number, first: number | undefined, ended: number, generated: Generated, tasks: LongTaskRecord): GenerationSample {
  const ttftMs = (first ?? ended) - started;
  const decodeSeconds = first === undefined ? 0 : (ended - first) / 1000;
  return {
    ttftMs,
    prefillTokPerS: ttftMs > 0 ? generated.promptTokens / (ttftMs / 1000) : 0,
    decodeTokPerS: decodeSeconds > 0 ? (generated.outputTokens - 1) / decodeSeconds : 0,
    ...generated,
    ...tasks,
  };
}

/** A path loaded in a fresh worker, ready to generate again and again. */
export interface LoadedPath {
  loadMs: number;
  generate(): Promise<GenerationSample>;
  /** The WASM threads ONNX Runtime started with, once known (the runtime's after its first generation). */
  threads(): number | undefined;
  /** The runtime's two-step tool loop (bench/tool-loop.ts); the runtime path only. */
  toolLoop?(): Promise<ToolLoopSample>;
  terminate(): void;
}

/** A raw path: its worker's `load`, then `generate` as often as asked. */
export async function loadWorker(worker: Worker, loadArgs: unknown, generateArgs: unknown): Promise<LoadedPath> {
  try {
    const loadStarted = performance.now();
    const loadedWith = await callWorker<{ stages?: Record<string, number>; threads?: number } | undefined>(worker, "load", loadArgs);
    const loadMs = performance.now() - loadStarted;
    if (loadedWith?.stages) console.log(`[bench] load stages: ${Object.entries(loadedWith.stages).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")}`);
    const generate = async (): Promise<GenerationSample> => {
      const recorder = longTaskRecorder();
      recorder.start();
      const started = performance.now();
      let first: number | undefined;
      const generated = await callWorker<Generated>(worker, "generate", generateArgs, (event: { text: string }) => {
        if (event.text) first ??= performance.now();
      });
      const ended = performance.now();
      return generationSample(started, first, ended, generated, recorder.stop());
    };
    return { loadMs, generate, threads: () => loadedWith?.threads, terminate: () => worker.terminate() };
  } catch (error) {
    worker.terminate();
    throw error;
  }
}
