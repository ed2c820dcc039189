import { defineWebTool, isNativeModelContext, registerWebTool } from "../../runtime/core/index.js";
import { createAgentSession, type AgentMessage } from "../../runtime/index.js";
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

const session = createAgentSession(echo, { storageKey: "web-agents:runtime-demo" });
const log = document.querySelector<HTMLElement>("#log")!;

function render(messages: readonly AgentMessage[]): void {
  log.replaceChildren(
    ...messages.map((message) => {
      const row = document.createElement("p");
      row.append(`${message.role === "user" ? "You" : "Echo"}: `);
      for (const part of message.parts) {
        if (part.type === "text") row.append(part.text);
        if (part.type === "tool") {
          const tool = document.createElement("span");
          tool.className = "tool";
          tool.textContent = `[${part.name}: ${part.state}${part.output ? ` → ${part.output.content[0]?.text ?? ""}` : ""}] `;
          row.append(tool);
        }
      }
      return row;
    }),
  );
}

session.subscribe(() => render(session.getSnapshot().messages));
render(session.getSnapshot().messages);

const form = document.querySelector<HTMLFormElement>("#composer")!;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  session.send(String(new FormData(form).get("q") ?? ""));
  form.reset();
});
document.querySelector("#new-chat")!.addEventListener("click", () => session.reset());
