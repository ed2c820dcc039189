// Two <AgentChat>s that each offer two scripted adapters with nothing stored
// (storageKey: false): #own makes its session, #given renders one made with
// createAgentSession. For agent-chat.switch.browser.test.ts, which reads
// window.harness.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import type { AgentRunRequest } from "../../../runtime/session/agent-adapter.js";
import type { AgentStreamPart } from "../../../runtime/session/agent-stream-part.js";
import { createAgentSession } from "../../../runtime/session/create-agent-session.js";
import { createScriptedAdapter } from "../../../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "../../agent-chat.js";

/** A reply that says which adapter answered and how many user messages it was sent. */
const reply = (label: string) => (request: AgentRunRequest): AgentStreamPart[] => {
  const id = crypto.randomUUID();
  const asked = request.messages.filter((message) => message.role === "user").length;
  return [{ type: "message-start", messageId: id }, { type: "text-delta", messageId: id, delta: `${label} read ${asked} messages.` }, { type: "finish", reason: "stop" }];
};

const pair = (prefix: string) => [
  createScriptedAdapter({ id: `${prefix}-one`, label: "One", runs: Array.from({ length: 5 }, () => reply("One")) }),
  createScriptedAdapter({ id: `${prefix}-two`, label: "Two", runs: Array.from({ length: 5 }, () => reply("Two")) }),
];
const own = pair("own");
const given = pair("given");
const session = createAgentSession(given[0]!, { storageKey: false });

createRoot(document.querySelector("#own")!).render(
  <StrictMode>
    <AgentChat adapters={own} storageKey={false} />
  </StrictMode>,
);
createRoot(document.querySelector("#given")!).render(
  <StrictMode>
    <AgentChat session={session} adapters={given} storageKey={false} />
  </StrictMode>,
);

(window as unknown as { harness: unknown }).harness = {
  requests: (which: "own" | "given") => (which === "own" ? own : given).map((adapter) => adapter.requests.map((request) => request.messages.length)),
  sessionAdapter: () => session.adapter.id,
};
document.body.dataset.ready = "true";
