// Two <AgentChat>s on one page, each with an adapter that makes concurrent
// calls of the same confirm-gated tool, for agent-chat.two-chats.browser.test.ts.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import type { AgentAdapter } from "../../../runtime/session/agent-adapter.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";

const confirm = defineWebTool({
  name: "confirm",
  description: "Asks the person to click one of the page's buttons.",
  inputSchema: { type: "object", properties: { button: { type: "string" } }, required: ["button"] },
  async execute(input: { button: string }, { waitForClick }) {
    await waitForClick(`#${input.button}`, `Click ${input.button.toUpperCase()}.`);
    return `Clicked ${input.button.toUpperCase()}.`;
  },
});

/** Calls `confirm` once per button, all at once, then says it is done. */
function concurrentCalls(id: string, buttons: string[]): AgentAdapter {
  return {
    id,
    label: id,
    async *run(request) {
      const messageId = crypto.randomUUID();
      yield { type: "message-start", messageId };
      const calls = buttons.map((button) => ({ id: `${id}-${button}`, name: "confirm", input: { button } }));
      for (const call of calls) yield { type: "tool-call", messageId, ...call };
      const outputs = await Promise.all(calls.map((call) => request.callTool(call)));
      for (const [index, output] of outputs.entries()) yield { type: "tool-result", id: calls[index]!.id, output };
      yield { type: "text-delta", messageId, delta: `${id} done.` };
      yield { type: "finish", reason: "stop" };
    },
  };
}

createRoot(document.querySelector("main")!.appendChild(document.createElement("div"))).render(
  <StrictMode>
    <WebAgentsProvider tools={[confirm]}>{null}</WebAgentsProvider>
  </StrictMode>,
);
for (const [where, adapter] of [
  ["#first", concurrentCalls("first", ["a", "b"])],
  ["#second", concurrentCalls("second", ["c"])],
] as const) {
  createRoot(document.querySelector(where)!).render(
    <StrictMode>
      <AgentChat adapter={adapter} storageKey={false} title={adapter.id} style={{ height: 520 }} />
    </StrictMode>,
  );
}

document.body.dataset.ready = "true";
