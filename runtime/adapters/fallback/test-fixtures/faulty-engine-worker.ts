/// <reference lib="webworker" />
// FAULT INJECTION, for fallback.browser.test.ts only (never shipped): the real
// engine worker (engine-worker.ts: the engine host, transformers.js, the model
// cache) with a fault armed per generation request. A request carrying
// `fault: { id, kind, atEvent }` counts the engine's streamed text events
// across every generation with that fault id; at the `atEvent`-th one:
// - `device-lost`: the generation stops and rejects as a lost GPU device
//   would surface from ONNX Runtime (an `EngineError` `generation_failed`);
// - `kill`: the worker posts `{ faultInjection: "kill" }` and keeps
//   generating; the page terminates the worker on that message.
// Either way the fault's time (epoch ms) travels with it. After each
// generation the worker posts the count so far (`faultInjection: "count"`).
import { EngineError } from "../../../../worker/engine-error.js";
import { createEngineHost } from "../../../../worker/engine-host.js";
import { exposeEngineHost } from "../../../../worker/expose-engine-host.js";
import type { ModelEngine } from "../../../../worker/model-engine.js";
import { createModelCache } from "../../../../worker/model-cache.js";
import { ORT_WASM_PATHS } from "../../../../worker/ort-wasm-paths.js";
import type { GenerateRequest } from "../../../../worker/protocol.js";
import { TransformersEngine } from "../../../../worker/transformers-engine.js";

/** The test-only field a fault-armed request carries. */
export interface InjectedFault {
  id: string;
  kind: "device-lost" | "kill";
  /** 1-based: the text event at which the fault fires, counted across the fault's generations. */
  atEvent: number;
}

const now = () => performance.timeOrigin + performance.now();
const counts = new Map<string, number>();

function withFaults(engine: ModelEngine): ModelEngine {
  return {
    load: (model, onProgress, signal) => engine.load(model, onProgress, signal),
    async generate(request, onEvent, signal) {
      const fault = (request as GenerateRequest & { fault?: InjectedFault }).fault;
      if (!fault) return engine.generate(request, onEvent, signal);
      const inner = new AbortController();
      const forward = () => inner.abort();
      signal.addEventListener("abort", forward, { once: true });
      let lostAt: number | undefined;
      try {
        await engine.generate(
          request,
          (event) => {
            if (lostAt !== undefined) return;
            if (event.type === "text") {
              const count = (counts.get(fault.id) ?? 0) + 1;
              counts.set(fault.id, count);
              if (count === fault.atEvent) {
                if (fault.kind === "device-lost") {
                  lostAt = now();
                  inner.abort();
                  return;
                }
                self.postMessage({ faultInjection: "kill", at: now() });
              }
            }
            onEvent(event);
          },
          inner.signal,
        );
      } finally {
        signal.removeEventListener("abort", forward);
        // How far the fault's count got, after each generation (a clean run's count sizes the draws).
        self.postMessage({ faultInjection: "count", id: fault.id, count: counts.get(fault.id) ?? 0 });
      }
      if (lostAt !== undefined) {
        throw new EngineError({ code: "generation_failed", message: "Device lost: the GPU device was lost (fault injected).", detail: `faultAt=${lostAt}` });
      }
    },
  };
}

exposeEngineHost(
  createEngineHost({
    engines: { transformers: () => withFaults(new TransformersEngine({ wasmPaths: ORT_WASM_PATHS })) },
    store: createModelCache(),
  }),
);
