// <AgentChat> in each state a person can meet, one at a time, for
// agent-chat.layout.browser.test.ts: window.harness.show(state) remounts the
// chat with a fresh on-device double and brings it to that state.
import { createRoot } from "react-dom/client";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import type { AgentRunRequest } from "../../../runtime/session/agent-adapter.js";
import type { AgentStreamPart } from "../../../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../../../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";
import { createModelAdapterDouble } from "../model-adapter-double.js";

/** The states the layout matrix covers. */
export const CHAT_STATES = ["needs-download", "downloading", "loading", "ready", "streaming", "parked", "error", "unavailable"] as const;
export type ChatState = (typeof CHAT_STATES)[number];

const tools = [
  defineWebTool({
    name: "place_order",
    description: "Place the order. The person confirms with the Place order button.",
    async execute(_input, { waitForClick }) {
      await waitForClick("#place-order", "Click Place order to confirm.");
      return { orderId: 7 };
    },
  }),
];

const id = "reply";
const start: AgentStreamPart = { type: "message-start", messageId: id };
const text = (delta: string): AgentStreamPart => ({ type: "text-delta", messageId: id, delta });
const REPLY =
  "Here is what I found:\n\n- **Wool socks**, 12 €, in stock\n- Trail socks, 14 €, two left\n\nShall I add the wool socks to your cart?";

/** A run that streams its first words, then waits until the person presses Stop. */
async function* streamUntilStopped(request: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
  yield start;
  yield text("Looking through the catalog for warm socks in your size");
  await new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true }));
  yield { type: "finish", reason: "aborted" };
}

const MORE_MODELS = [
  { id: "medium", label: "Qwen3.5 2B", brief: "Reads longer pages; slower on a CPU.", bytes: 1_500_000_000 },
  { id: "test-tiny", label: "Test model: tiny", brief: "The project's own tiny model, for trying the chat offline.", bytes: 2_000_000 },
  { id: "test-store", label: "Test model: store script", brief: "Replays a shopping run with real tool calls.", bytes: 2_000_000 },
];

const root = createRoot(document.querySelector("#chat")!);
let mounts = 0;

async function show(state: ChatState, options: { title?: string } = {}): Promise<void> {
  const runs: Record<string, readonly AgentStreamPart[]> = {
    ready: [start, text(REPLY), { type: "finish", reason: "stop" }],
    parked: [start, text("Placing the order."), { type: "tool-call", messageId: id, id: "call-1", name: "place_order", input: {} }],
    error: [start, text("Checking the cart"), { type: "error", error: "fetch failed", code: "network" }],
  };
  const local = createModelAdapterDouble(runs[state] ? [runs[state]] : [], { note: "Runs on the CPU here: replies come slowly." });
  // As many models as the on-device catalog offers with test models on: the open picker is the tallest part.
  const models = local.models;
  local.models = () => [...models(), ...MORE_MODELS];
  if (state === "streaming") local.run = streamUntilStopped;
  const cloud = createScriptedAdapter({ id: "cloud", label: "Cloud", runs: [] });
  const status = {
    "needs-download": undefined,
    downloading: { state: "downloading", progress: 0.4 },
    loading: { state: "loading", progress: 0.6 },
    unavailable: { state: "unavailable", reason: "This browser has neither WebGPU nor WebAssembly threads." },
  } as const;
  const next = (status as Record<string, (typeof status)[keyof typeof status]>)[state];
  if (next) local.setStatus(next);
  else if (state !== "needs-download") local.setStatus({ state: "ready" });
  root.render(
    <WebAgentsProvider tools={tools}>
      <AgentChat key={++mounts} adapters={[local, cloud]} storageKey={false} title={options.title ?? "Shop assistant"} style={{ height: "min(560px, calc(100vh - 32px))" }} />
    </WebAgentsProvider>,
  );
  document.body.dataset.state = state;
}

Object.assign(window, { harness: { show, states: CHAT_STATES } });
document.body.dataset.ready = "true";
