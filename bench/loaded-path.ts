// A bench path loaded in its worker (run-bench-page.ts runs them), and the raw paths' loader.
import type { GenerationSample, ToolLoopSample } from "./bench-types.js";
import { longTaskRecorder, type LongTaskRecord } from "./long-task-recorder.js";
import { isVisible, onThisTimeline } from "./shared-clock.js";
import { callWorker } from "./worker-rpc.js";

/** What a worker path reports of one generation. */
export interface Generated {
  promptTokens: number;
  outputTokens: number;
  text: string;
  workerTtftMs: number;
  /** (output tokens - 1) / (last token - first token), on the engine's token events: every path's decode figure. */
  workerDecodeTokPerS: number;
  /** When the engine sampled its first token, on the shared clock (shared-clock.ts); 0 when it sampled none. */
  firstTokenAt: number;
}

/**
 * One generation timed on the same events on every path: from the page's
 * call (`started`) to the engine's first token (`generated.firstTokenAt`),
 * and to the first visible text arriving on the page (`firstVisible`).
 */
export function generationSample(started: number, firstVisible: number | undefined, ended: number, generated: Generated, tasks: LongTaskRecord): GenerationSample {
  const ttftMs = generated.firstTokenAt > 0 ? onThisTimeline(generated.firstTokenAt) - started : ended - started;
  const visibleTtftMs = (firstVisible ?? ended) - started;
  const pageSeconds = firstVisible === undefined ? 0 : (ended - firstVisible) / 1000;
  return {
    ttftMs,
    visibleTtftMs,
    prefillTokPerS: ttftMs > 0 ? generated.promptTokens / (ttftMs / 1000) : 0,
    decodeTokPerS: generated.workerDecodeTokPerS,
    pageDecodeTokPerS: pageSeconds > 0 ? (generated.outputTokens - 1) / pageSeconds : 0,
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
        if (first === undefined && isVisible(event.text)) first = performance.now();
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
