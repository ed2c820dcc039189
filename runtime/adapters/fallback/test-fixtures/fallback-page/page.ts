// A shop page with a real add_to_cart tool, the real createLocalAdapter on the
// scripted test model (its worker: ../faulty-engine-worker.ts, the real engine
// worker with FAULT INJECTION), the real createCloudAdapter on the test
// server's /api/chat (the real chat handler, a mock model), both behind
// createFallbackAdapter, and a real session. The test reads window.fallbackHarness.
import { defineWebTool, registerWebTool } from "../../../../core/index.js";
import type { AgentMessage } from "../../../../session/agent-message.js";
import type { AgentStreamPart } from "../../../../session/agent-stream-part.js";
import { createAgentSession } from "../../../../session/create-agent-session.js";
import type { GenerationUsage } from "../../../../../worker/protocol.js";
import { createCloudAdapter } from "../../../cloud/create-cloud-adapter.js";
import { createFallbackAdapter } from "../../create-fallback-adapter.js";
import type { InjectedFault } from "../faulty-engine-worker.js";
import { createFaultyLocalAdapter } from "../faulty-local-adapter.js";

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

const { local, state } = createFaultyLocalAdapter();
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
  counts: () => state.counts,
  /** One turn ("Buy socks") in a fresh session, with `armed` as the fault; resolves when the session is idle. */
  async run(armed?: InjectedFault): Promise<RunResult> {
    state.fault = armed;
    delete state.faultAt;
    state.counts = [];
    state.usages = [];
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
    delete state.fault;
    const notice = fallback.notice();
    return {
      executions: executions - before,
      ...(state.faultAt !== undefined && { faultAt: state.faultAt }),
      ...(finishAt !== undefined && { finishAt }),
      ...(last && { last }),
      ...(error && { error: error.message }),
      ...(notice && { notice: notice.text }),
      messages,
      counts: state.counts,
      usages: state.usages,
      adapters: notice ? [notice.from, notice.to] : [],
    };
  },
};
Object.assign(window, { fallbackHarness: harness });
document.body.dataset.ready = "true";
