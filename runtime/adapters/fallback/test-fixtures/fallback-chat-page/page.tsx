// <AgentChat adapter={createFallbackAdapter([local, cloud])}>: the real local
// adapter with FAULT INJECTION (../faulty-local-adapter.ts) and the real
// cloud adapter on the test server's /api/chat. The test types and clicks;
// window.fallbackChat arms the fault and reads the cart and the local status.
import { createRoot } from "react-dom/client";
import { defineWebTool, registerWebTool } from "../../../../core/index.js";
import { AgentChat } from "../../../../../widget/agent-chat.js";
import { createCloudAdapter } from "../../../cloud/create-cloud-adapter.js";
import { createFallbackAdapter } from "../../create-fallback-adapter.js";
import type { InjectedFault } from "../faulty-engine-worker.js";
import { createFaultyLocalAdapter } from "../faulty-local-adapter.js";

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
const fallback = createFallbackAdapter([local, createCloudAdapter({ maxSteps: 4 })]);
createRoot(document.querySelector("#root")!).render(<AgentChat adapter={fallback} storageKey={false} cursor={false} style={{ height: 560 }} />);

Object.assign(window, {
  fallbackChat: {
    arm: (fault: InjectedFault) => void (state.fault = fault),
    executions: () => executions,
    localStatus: () => local.status(),
    prepare: () => local.prepare(),
    faultAt: () => state.faultAt,
  },
});
document.body.dataset.ready = "true";
