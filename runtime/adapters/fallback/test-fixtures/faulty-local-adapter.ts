// The real createLocalAdapter on the scripted test model, its worker
// faulty-engine-worker.ts (the real engine worker with FAULT INJECTION, tests
// only), and the fault it arms on each generation. Shared by the fixture pages.
import { createEngineClient } from "../../../../worker/engine-client.js";
import { EngineError } from "../../../../worker/engine-error.js";
import type { GenerationUsage, StepRequest } from "../../../../worker/protocol.js";
import { createLocalAdapter, type LocalAdapter } from "../../local/create-local-adapter.js";
import { testModelEntries } from "../../../testing/index.js";
import type { InjectedFault } from "./faulty-engine-worker.js";

/** What the page arms and reads back. */
export interface FaultState {
  /** The fault armed for the current turn: each generation request carries it. */
  fault?: InjectedFault;
  /** When it fired (epoch ms), from the worker. */
  faultAt?: number;
  /** The armed fault's event count after each generation (cumulative), from the worker. */
  counts: number[];
  usages: GenerationUsage[];
}

export function createFaultyLocalAdapter(): { local: LocalAdapter; state: FaultState } {
  const state: FaultState = { counts: [], usages: [] };
  const client = createEngineClient({
    spawn: () => {
      const worker = new Worker(new URL("./faulty-engine-worker.ts", import.meta.url), { type: "module" });
      // The kill switch: the worker says it reached the armed event, the page terminates it.
      worker.addEventListener("message", (event: MessageEvent) => {
        if (event.data?.faultInjection === "count") state.counts.push(event.data.count as number);
        if (event.data?.faultInjection !== "kill") return;
        state.faultAt = event.data.at as number;
        client.terminate();
      });
      return worker;
    },
  });
  const local = createLocalAdapter({
    worker: {
      host: {
        ...client,
        generate: (request, onEvent) =>
          client
            .generate(state.fault ? ({ ...request, fault: state.fault } as StepRequest) : request, (event) => {
              if (event.type === "usage") state.usages.push(event.usage);
              onEvent(event);
            })
            .catch((error: unknown) => {
              const at = (EngineError.isInstance(error) ? error.detail : undefined)?.match(/^faultAt=([\d.]+)$/)?.[1];
              if (at) state.faultAt = Number(at);
              throw error;
            }),
      },
    },
    catalog: { models: testModelEntries({ baseUrl: "/models/test" }), model: "test-scripted", rememberModel: false },
    generation: { maxNewTokens: 128 },
  });
  return { local, state };
}
