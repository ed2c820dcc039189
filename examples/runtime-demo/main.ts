import { defineWebTool, isNativeModelContext, registerWebTool } from "@webmcp-agents/chat/core";
import {
  createAgentSession,
  createCloudAdapter,
  type AdapterStatus,
  type AgentAdapter,
  type AgentMessage,
  type AgentSessionStore,
} from "@webmcp-agents/chat/runtime";
import { echo } from "./echo-adapter.js";

await registerWebTool(
  defineWebTool({
    name: "get_time",
    description: "The current time on this device.",
    annotations: { readOnlyHint: true },
    execute: () => new Date().toLocaleTimeString(),
  }),
);
await registerWebTool(
  defineWebTool({
    name: "get_page",
    description: "The page's title and path.",
    annotations: { readOnlyHint: true },
    execute: () => ({ title: document.title, path: location.pathname }),
  }),
);
document.querySelector("#webmcp")!.textContent = isNativeModelContext() ? "native" : "polyfill";

const adapters: AgentAdapter[] = [echo, createCloudAdapter()];
const log = document.querySelector<HTMLElement>("#log")!;
const statusLine = document.querySelector<HTMLElement>("#status")!;
const picker = document.querySelector<HTMLSelectElement>("#adapter")!;
const input = document.querySelector<HTMLInputElement>("input[name=q]")!;

function describe(status: AdapterStatus): string {
  switch (status.state) {
    case "ready":
      return "";
    case "unavailable":
      return status.reason;
    case "loading":
      return "Connecting…";
    case "error":
      return status.error;
    default:
      return status.state;
  }
}

function render(session: AgentSessionStore): void {
  const { messages, adapterStatus, error, status } = session.getSnapshot();
  statusLine.textContent = status === "error" ? (error?.message ?? "") : describe(adapterStatus);
  input.disabled = adapterStatus.state !== "ready";
  log.replaceChildren(...messages.map((message) => row(message, session)));
}

function row(message: AgentMessage, session: AgentSessionStore): HTMLElement {
  const element = document.createElement("p");
  element.append(`${message.role === "user" ? "You" : session === current?.session ? current.adapter.label : "Agent"}: `);
  for (const part of message.parts) {
    if (part.type === "text") element.append(part.text);
    if (part.type === "tool") {
      const tool = document.createElement("span");
      tool.className = "tool";
      tool.textContent = `[${part.name}: ${part.state}${part.output ? ` → ${part.output.content[0]?.text ?? ""}` : ""}] `;
      element.append(tool);
    }
  }
  return element;
}

let current: { adapter: AgentAdapter; session: AgentSessionStore; unsubscribe: () => void } | undefined;
function use(adapter: AgentAdapter): void {
  current?.unsubscribe();
  current?.session.dispose();
  const session = createAgentSession(adapter, { storageKey: `web-agents:runtime-demo:${adapter.id}` });
  current = { adapter, session, unsubscribe: session.subscribe(() => render(session)) };
  render(session);
}

picker.append(...adapters.map((adapter) => new Option(adapter.label, adapter.id)));
picker.addEventListener("change", () => use(adapters.find((adapter) => adapter.id === picker.value)!));
use(echo);

const form = document.querySelector<HTMLFormElement>("#composer")!;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  current?.session.send(String(new FormData(form).get("q") ?? ""));
  form.reset();
});
document.querySelector("#new-chat")!.addEventListener("click", () => current?.session.reset());
document.body.dataset.ready = "true";
