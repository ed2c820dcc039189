// A shop page with a real add_to_cart tool, the real createLocalAdapter on the
// scripted test model (its worker: ../faulty-engine-worker.ts, the real engine
// worker with FAULT INJECTION), the real createCloudAdapter on the test
// server's /api/chat (the real chat handler, a mock model), both behind
// createFallbackAdapter, and a real session. The test reads window.fallbackHarness.
import { defineWebTool, registerWebTool } from "../../../../core/index.js";
import type { AgentStreamPart } from "../../../../session/agent-stream-part.js";
import { createAgentSession } from "../../../../session/create-agent-session.js";
import type { AgentMessage } from "../../../../session/agent-message.js";
import { createEngineClient } from "../../../../../worker/engine-client.js";
import { EngineError } from "../../../../../worker/engine-error.js";
import type { GenerateRequest, GenerationUsage } from "../../../../../worker/protocol.js";
import { createCloudAdapter } from "../../../cloud/create-cloud-adapter.js";
import { createLocalAdapter } from "../../../local/create-local-adapter.js";
import { createFallbackAdapter } from "../../create-fallback-adapter.js";
import type { InjectedFault } from "../faulty-engine-worker.js";

const now = () => performance.timeOrigin + performance.now();
const badge = document.querySelector("#badge")!;
let executions = 0;

await registerWebTool(
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    execute: async (input: { sku: string }) => {
      executions++;
      badge.textContent = String(executions);
      return `Added ${input.sku}.`;
    },
  }),
);

/** The fault armed for the current run, and when it fired (epoch ms). */
let fault: InjectedFault | undefined;
let faultAt: number | undefined;
let textEvents = 0;
/** The armed fault's event count after each generation (cumulative). */
let counts: number[] = [];
let usages: GenerationUsage[] = [];

const client = createEngineClient({
  spawn: () => {
    const worker = new Worker(new URL("../faulty-engine-worker.ts", import.meta.url), { type: "module" });
    // The kill switch: the worker says it reached the armed event, the page terminates it.
    worker.addEventListener("message", (event: MessageEvent) => {
      if (event.data?.faultInjection === "count") counts.push(event.data.count as number);
      if (event.data?.faultInjection !== "kill") return;
      faultAt = event.data.at as number;
      client.terminate();
    });
    return worker;
  },
});

const local = createLocalAdapter({
  engine: {
    ...client,
    generate: (request, onEvent) =>
      client
        .generate(fault ? ({ ...request, fault } as GenerateRequest) : request, (event) => {
          if (event.type === "text") textEvents++;
          if (event.type === "usage") usages.push(event.usage);
          onEvent(event);
        })
        .catch((error: unknown) => {
          const detail = EngineError.isInstance(error) ? error.detail : undefined;
          const at = detail?.match(/^faultAt=([\d.]+)$/)?.[1];
          if (at) faultAt = Number(at);
          throw error;
        }),
  },
  models: [],
  testModels: { baseUrl: "/models/test" },
  model: "test-scripted",
  rememberModel: false,
  generation: { maxNewTokens: 128 },
});
const cloud = createCloudAdapter({ maxSteps: 4 });
const fallback = createFallbackAdapter([local, cloud]);

interface RunResult {
  executions: number;
  faultAt?: number;
  finishAt?: number;
  last?: AgentStreamPart;
  error?: string;
  notice?: string;
  messages: AgentMessage[];
  textEvents: number;
  counts: number[];
  usages: GenerationUsage[];
  adapters: string[];
}

const harness = {
  status: () => fallback.status(),
  localStatus: () => local.status(),
  cloudStatus: () => cloud.status?.() ?? { state: "ready" },
  prepare: () => local.prepare(),
  /** The armed fault's event counts so far (the worker's last one may arrive after the turn ends). */
  counts: () => counts,
  /** One turn ("Buy socks") in a fresh session, with `armed` as the fault; resolves when the session is idle. */
  async run(armed?: InjectedFault): Promise<RunResult> {
    fault = armed;
    faultAt = undefined;
    textEvents = 0;
    counts = [];
    usages = [];
    const before = executions;
    let finishAt: number | undefined;
    let last: AgentStreamPart | undefined;
    const observed = {
      ...fallback,
      async *run(req: Parameters<typeof fallback.run>[0]) {
        for await (const part of fallback.run(req)) {
          if (part.type === "finish" || part.type === "error") {
            finishAt = now();
            last = part;
          }
          yield part;
        }
      },
    };
    const session = createAgentSession(observed, { storageKey: false });
    let streamed = false;
    const done = new Promise<void>((resolve) => {
      session.subscribe(() => {
        if (session.getSnapshot().status === "streaming") streamed = true;
        else if (streamed) resolve();
      });
    });
    session.send("Buy socks");
    await done;
    const { messages, error } = session.getSnapshot();
    session.dispose();
    fault = undefined;
    const notice = fallback.notice();
    return {
      executions: executions - before,
      ...(faultAt !== undefined && { faultAt }),
      ...(finishAt !== undefined && { finishAt }),
      ...(last && { last }),
      ...(error && { error: error.message }),
      ...(notice && { notice: notice.text }),
      messages,
      textEvents,
      counts,
      usages,
      adapters: notice ? [notice.from, notice.to] : [],
    };
  },
};
Object.assign(window, { fallbackHarness: harness });
document.body.dataset.ready = "true";
