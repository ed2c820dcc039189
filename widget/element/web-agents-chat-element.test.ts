// @vitest-environment happy-dom
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineWebTool } from "../../runtime/core/define-web-tool.js";
import { registerWebTool } from "../../runtime/core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AgentStreamPart } from "../../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../../runtime/testing/create-scripted-adapter.js";
import { button, chatRoot, findButton, sendMessage } from "../test-fixtures/chat-queries.js";
import { waitUntil } from "../test-fixtures/mount.js";
import { defineWebAgentsChat, WebAgentsChatElement } from "./index.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const callThenAnswer: AgentStreamPart[] = [
  { type: "message-start", messageId: "m-call" },
  { type: "tool-call", messageId: "m-call", id: "call-1", name: "get_cart", input: {} },
  { type: "text-delta", messageId: "m-call", delta: "Done." },
  { type: "finish", reason: "stop" },
];

let element: WebAgentsChatElement;
beforeEach(() => {
  installHappyDomWebMCP();
  element = document.createElement("web-agents-chat");
  element.setAttribute("storage-key", "false");
});
afterEach(() => {
  act(() => element.remove());
  sessionStorage.clear();
  localStorage.clear();
  resetWebMCP();
});

const connect = () => act(() => void document.body.append(element));
const root = () => chatRoot(element);

describe("<web-agents-chat>", () => {
  it("is defined once by the entry, and defining again does nothing", () => {
    expect(customElements.get("web-agents-chat")).toBe(WebAgentsChatElement);
    expect(() => defineWebAgentsChat()).not.toThrow();
    expect(element).toBeInstanceOf(WebAgentsChatElement);
  });

  it("renders <AgentChat> in a shadow root on connect, re-renders on an attribute change, and unmounts on disconnect", () => {
    element.adapter = createScriptedAdapter({ runs: [] });
    element.setAttribute("heading", "Shop assistant");
    connect();
    expect(root().querySelector("h2")?.textContent).toBe("Shop assistant");
    act(() => element.setAttribute("heading", "Store help"));
    expect(root().querySelector("h2")?.textContent).toBe("Store help");
    act(() => element.remove());
    expect(element.querySelector("[data-web-agents-ui]")).toBeNull();
    // Connected again, it renders again.
    connect();
    expect(root().querySelector("h2")?.textContent).toBe("Store help");
  });

  it("takes its words from the labels property, in part, with heading still winning over labels.title", () => {
    element.adapter = createScriptedAdapter({ runs: [] });
    element.labels = { title: "Assistent", send: "Senden" };
    connect();
    expect(root().querySelector("h2")?.textContent).toBe("Assistent");
    expect(button(root(), "Senden")).toBeDefined();
    // Left out: the English default.
    expect(button(root(), "New chat")).toBeDefined();
    act(() => element.setAttribute("heading", "Laden"));
    expect(root().querySelector("h2")?.textContent).toBe("Laden");
    act(() => void (element.labels = undefined));
    expect(button(root(), "Send")).toBeDefined();
  });

  it("runs with an agent from the instructions and tools attributes, and sends the tool call and the finish as bubbling, composed DOM events", async () => {
    await registerWebTool(defineWebTool({ name: "get_cart", description: "The cart.", annotations: { readOnlyHint: true }, execute: () => "empty" }));
    const adapter = createScriptedAdapter({ runs: [callThenAnswer] });
    element.adapters = [adapter];
    element.setAttribute("instructions", "You help people shop.");
    element.setAttribute("tools", "get_cart, add_to_cart");
    const seen: string[] = [];
    for (const type of ["web-agents-tool-call", "web-agents-confirmation", "web-agents-finish", "web-agents-error"]) {
      document.addEventListener(type, (event) => {
        const custom = event as CustomEvent<{ name?: string }>;
        expect(custom.bubbles && custom.composed).toBe(true);
        seen.push(`${type}${custom.detail.name ? `:${custom.detail.name}` : ""}`);
      });
    }
    connect();
    sendMessage(root(), "Hello");
    await waitUntil(() => seen.includes("web-agents-finish"), `the finish event (seen: ${seen.join(", ")}; ${root().textContent})`);
    expect(seen).toEqual(["web-agents-tool-call:get_cart", "web-agents-finish"]);
    expect(adapter.requests[0]!.agent).toBe("page");
    expect(adapter.requests[0]!.tools.map((tool) => tool.name)).toEqual(["get_cart"]);
    expect(root().textContent).toContain("Done.");
  });

  it("keeps one agent while its instructions and tools attributes stay: a render for another attribute does not stop the run", async () => {
    let signal: AbortSignal | undefined;
    element.adapters = [
      {
        id: "slow",
        label: "Slow",
        async *run(request) {
          signal = request.signal;
          yield { type: "message-start", messageId: "m-1" };
          await new Promise(() => {});
        },
      },
    ];
    element.setAttribute("instructions", "You help people shop.");
    element.setAttribute("tools", "get_cart");
    connect();
    sendMessage(root(), "Hello");
    await waitUntil(() => signal !== undefined, "the run");
    act(() => element.setAttribute("heading", "Shop"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signal!.aborted).toBe(false);
    expect(root().textContent).not.toContain("Stopped");
  });

  it("shows the token statistics line only with the usage attribute", async () => {
    const answer: AgentStreamPart[] = [
      { type: "message-start", messageId: "m-1" },
      { type: "text-delta", messageId: "m-1", delta: "Done." },
      { type: "step-finish", step: 0, usage: { promptTokens: 941, cachedPromptTokens: 866, outputTokens: 12 } },
      { type: "finish", reason: "stop" },
    ];
    element.adapter = createScriptedAdapter({ runs: [answer, answer] });
    connect();
    const send = async (text: string) => {
      sendMessage(root(), text);
      await waitUntil(() => findButton(root(), "Send") !== undefined && (root().textContent ?? "").includes("Done."), "the answer");
    };
    await send("Hello");
    // A visitor sees the answer, not the developer's statistics.
    expect(root().querySelector("[data-usage]")).toBeNull();
    act(() => element.setAttribute("usage", ""));
    expect(root().querySelector("[data-usage]")?.textContent).toBe("941 tokens in (866 reused) · 12 out");
    act(() => element.setAttribute("usage", "false"));
    expect(root().querySelector("[data-usage]")).toBeNull();
  });

  it("sends web-agents-error when a run fails", async () => {
    element.adapter = createScriptedAdapter({ runs: [[{ type: "error", error: "Offline.", code: "network" }]] });
    const errors: unknown[] = [];
    document.addEventListener("web-agents-error", (event) => errors.push((event as CustomEvent).detail.error));
    connect();
    sendMessage(root(), "Hello");
    await waitUntil(() => errors.length > 0, "the error event");
    expect(errors[0]).toMatchObject({ message: expect.stringContaining("Offline") });
  });
});
