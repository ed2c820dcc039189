// @vitest-environment happy-dom
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { defineWebTool } from "../runtime/core/define-web-tool.js";
import { personClick } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentMessage } from "../runtime/session/agent-message.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "./agent-chat.js";
import { button, click, findButton, sendMessage } from "./test-fixtures/chat-queries.js";
import { tick, waitUntil } from "./test-fixtures/mount.js";
import { reply, useMountedChat } from "./test-fixtures/mounted-chat.js";
import { WebAgentsProvider } from "./web-agents-provider.js";

const { render, container, root, text, field } = useMountedChat();

/** Stores a conversation where the chat with `storageKey` will load it. */
function storeConversation(storageKey: string, messages: AgentMessage[]) {
  sessionStorage.setItem(storageKey, JSON.stringify({ v: 1, messages }));
}

describe("<AgentChat> shell", () => {
  it("renders in an open shadow root of a data-web-agents-ui host, with a polite log and a labelled composer", () => {
    const adapter = createScriptedAdapter({ runs: [] });
    render(<AgentChat adapter={adapter} storageKey={false} style={{ height: 400 }} />);
    const host = container().querySelector<HTMLElement>("[data-web-agents-ui]")!;
    expect(host.style.height).toBe("400px");
    expect(host.shadowRoot?.mode).toBe("open");
    // A constructed sheet (a page's style-src governs <style> elements, not adopted sheets), or a <style> where there is none.
    const shadow = host.shadowRoot!;
    const css = [...shadow.adoptedStyleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join("\n") + (shadow.querySelector("style")?.textContent ?? "");
    expect(css).toContain("prefers-color-scheme: dark");
    expect(css).toContain("prefers-reduced-motion");
    const log = root().querySelector('[role="log"]')!;
    expect(log.getAttribute("aria-live")).toBe("polite");
    const label = root().querySelector(`label[for="${field().id}"]`);
    expect(label?.textContent).toBe("Message");
    expect(text()).toContain("Ask me to do something on this page.");
    // One adapter, no models: no switcher, no picker.
    expect(root().querySelector("select, .models")).toBeNull();
  });

  it("uses the shared cloud adapter by default, which says Connecting… while it checks the endpoint", async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal("fetch", fetch);
    render(<AgentChat storageKey={false} />);
    await tick();
    expect(text()).toContain("Connecting…");
    expect(text()).not.toMatch(/download/i);
    expect(field().disabled).toBe(true);
    expect(String((fetch.mock.calls[0] as unknown[] | undefined)?.[0])).toContain("/api/chat");
  });
});

describe("<AgentChat> conversation", () => {
  const stored: AgentMessage[] = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Where is my order?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "reasoning", text: "SECRET-THOUGHTS: the person wants their order." },
        { type: "tool", id: "c1", name: "get_cart", input: { detail: true }, state: "done", output: { content: [{ type: "text", text: "2 items" }] } },
        { type: "tool", id: "c2", name: "add_to_cart", input: { sku: 42 }, state: "error", error: "Error [invalid_input]: sku must be a string" },
        { type: "tool", id: "c3", name: "place_order", input: {}, state: "cancelled", error: "Error [cancelled]: stopped" },
        {
          type: "tool",
          id: "c4",
          name: "delegate_to_orders",
          input: { task: "Track the last order" },
          state: "done",
          output: { content: [{ type: "text", text: "Arrives Friday." }] },
          agent: {
            id: "orders",
            messages: [
              { id: "n0", role: "user", parts: [{ type: "text", text: "Track the last order" }] },
              {
                id: "n1",
                role: "assistant",
                parts: [
                  { type: "tool", id: "n-c1", name: "track_order", input: { id: 7 }, state: "done", output: { content: [{ type: "text", text: "In transit" }], structuredContent: { status: "in transit" } } },
                  { type: "text", text: "It arrives **Friday**." },
                ],
              },
            ],
          },
        },
        { type: "text", text: 'Done. <script>window.pwned = 1</script> See [this](javascript:alert(1)) or [orders](/orders).' },
      ],
    },
  ];

  it("renders tool calls with their state and collapsible input and output, nests a sub-agent's run, and hides reasoning", () => {
    storeConversation("stored", stored);
    render(<AgentChat adapter={createScriptedAdapter({ runs: [] })} storageKey="stored" />);
    const tools = [...root().querySelectorAll<HTMLElement>(".log > .message.assistant > .tool")];
    expect(tools.map((tool) => [tool.dataset.tool, tool.dataset.state, tool.querySelector(".state")?.textContent])).toEqual([
      ["get_cart", "done", "Done"],
      ["add_to_cart", "error", "Failed"],
      ["place_order", "cancelled", "Cancelled"],
      ["delegate_to_orders", "done", "Done"],
    ]);
    const details = tools[0]!.querySelector("details")!;
    expect(details.open).toBe(false);
    // The tool's name in words (no title registered), its raw name inside the fold.
    expect(details.querySelector("summary .name")?.textContent).toBe("Get cart");
    expect(details.querySelector(".io code")?.textContent).toBe("get_cart");
    expect([...details.querySelectorAll("pre")].map((pre) => pre.textContent)).toEqual(['{\n  "detail": true\n}', "2 items"]);
    expect(tools[1]!.querySelector("details")?.textContent).toContain("Error [invalid_input]: sku must be a string");

    const nested = tools[3]!.querySelector<HTMLElement>(".nested")!;
    expect(nested.getAttribute("aria-label")).toBe("The orders agent's work");
    expect(tools[3]!.querySelector(".name")?.textContent).toBe("orders agent");
    const inner = nested.querySelector<HTMLElement>(".tool")!;
    expect([inner.dataset.tool, inner.dataset.state]).toEqual(["track_order", "done"]);
    expect(inner.textContent).toContain('"status": "in transit"');
    expect(nested.querySelector("strong")?.textContent).toBe("Friday");
    // The task given to the sub-agent is the delegate call's input, not a second user bubble.
    expect(nested.querySelector('[data-role="user"]')).toBeNull();

    expect(text()).not.toContain("SECRET-THOUGHTS");
  });

  it("renders the model's text as safe markdown: no script, no javascript: link", () => {
    storeConversation("stored", stored);
    render(<AgentChat adapter={createScriptedAdapter({ runs: [] })} storageKey="stored" />);
    expect(root().querySelector("script")).toBeNull();
    expect(text()).toContain("<script>window.pwned = 1</script>");
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
    const links = [...root().querySelectorAll("a")].map((link) => link.getAttribute("href"));
    expect(links).toEqual(["/orders"]);
    expect(text()).toContain("[this](javascript:alert(1))");
  });

  it("shows a running call, then one awaiting confirmation with its prompt, until the person's click", async () => {
    let release: (() => void) | undefined;
    const confirm = document.createElement("button");
    confirm.id = "confirm";
    confirm.textContent = "Place order";
    document.body.append(confirm);
    const slowTool = defineWebTool({
      name: "fill_form",
      description: "Fill the form.",
      execute: () => new Promise<string>((resolve) => (release = () => resolve("filled"))),
    });
    const gatedTool = defineWebTool({
      name: "place_order",
      description: "Place the order.",
      execute: async (_input, { waitForClick }) => {
        await waitForClick("#confirm", "Click Place order to confirm.");
        return "placed";
      },
    });
    const adapter = createScriptedAdapter({
      runs: [
        [
          { type: "message-start", messageId: "m" },
          { type: "tool-call", messageId: "m", id: "c1", name: "fill_form", input: {} },
          { type: "tool-call", messageId: "m", id: "c2", name: "place_order", input: {} },
          { type: "text-delta", messageId: "m", delta: "Ordered." },
          { type: "finish", reason: "stop" },
        ],
      ],
    });
    render(
      <WebAgentsProvider tools={[slowTool, gatedTool]}>
        <AgentChat adapter={adapter} storageKey={false} cursor={false} />
      </WebAgentsProvider>,
    );
    await tick();
    sendMessage(root(), "Order it");
    const state = (name: string) => root().querySelector<HTMLElement>(`.tool[data-tool="${name}"]`)?.dataset.state;
    await waitUntil(() => state("fill_form") === "running", "fill_form running");
    expect(root().querySelector('.tool[data-tool="fill_form"] .state')?.textContent).toBe("Running…");
    expect(button(root(), "Stop")).toBeDefined();
    // The call is shown running before its input is checked; release it once it runs.
    await waitUntil(() => release !== undefined, "fill_form executing");
    act(() => release!());
    await waitUntil(() => state("place_order") === "awaiting-confirmation", "place_order parked");
    const gated = root().querySelector('.tool[data-tool="place_order"]')!;
    // The state in words, naming the control; a button leads the person to it.
    expect(gated.querySelector(".state")?.textContent).toBe("Waiting for you to click Place order");
    expect(gated.querySelector('.prompt[role="status"]')?.textContent).toBe("Click Place order to confirm.");
    const goTo = gated.querySelector<HTMLButtonElement>("button.go-to")!;
    expect(goTo.textContent).toBe("Go to Place order");
    act(() => goTo.click());
    expect(document.activeElement).toBe(confirm);
    act(() => personClick(confirm));
    await waitUntil(() => text().includes("Ordered."), "the reply");
    expect(state("place_order")).toBe("done");
    expect(gated.querySelector(".prompt")).toBeNull();
    confirm.remove();
  });

  it("Stop aborts the streaming reply, and Escape in the composer does too", async () => {
    const talk = (messageId: string): AgentStreamPart[] => [
      { type: "message-start", messageId },
      ...Array.from({ length: 40 }, (_, index): AgentStreamPart => ({ type: "text-delta", messageId, delta: `word${index} ` })),
      { type: "finish", reason: "stop" },
    ];
    const adapter = createScriptedAdapter({ runs: [talk("m1"), talk("m2")], delay: 20 });
    render(<AgentChat adapter={adapter} storageKey={false} />);
    sendMessage(root(), "Talk");
    await waitUntil(() => text().includes("word1 "), "streaming text");
    expect(findButton(root(), "Send")).toBeUndefined();
    click(button(root(), "Stop"));
    await tick(60);
    expect(text()).not.toContain("word39");
    expect(button(root(), "Send")).toBeDefined();
    // The partial reply stays, marked as stopped.
    expect(root().querySelector(".message.assistant [data-stopped]")?.textContent).toBe("Stopped");

    sendMessage(root(), "Again");
    await waitUntil(() => (root().querySelectorAll(".log > .message.assistant")[1]?.textContent ?? "").includes("word1 "), "second reply");
    act(() => {
      field().dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    await tick(60);
    expect(button(root(), "Send")).toBeDefined();
    expect(text()).not.toContain("word39");
  });

  it("Stop while Working… (before the first word) leaves the turn, marked as stopped", async () => {
    const adapter: AgentAdapter = {
      id: "silent",
      label: "Silent",
      async *run({ signal }) {
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        yield { type: "finish", reason: "aborted" };
      },
    };
    render(<AgentChat adapter={adapter} storageKey={false} />);
    sendMessage(root(), "Find socks");
    await waitUntil(() => text().includes("Working…"), "Working…");
    click(button(root(), "Stop"));
    await tick();
    expect(text()).not.toContain("Working…");
    const turns = [...root().querySelectorAll(".log > .message")].map((message) => message.textContent);
    expect(turns).toEqual(["You: Find socks", "Stopped"]);
  });

  it.each([
    ["chat_disabled", "Chat is turned off on this site right now."],
    ["rate_limited", "That's a lot of messages for now. Wait a little, then try again."],
    ["bad_request", "The assistant couldn't take that request."],
    ["network", "Couldn't reach the assistant. Check your connection, then try again."],
    [undefined, "The model returned nothing useful."],
  ] as const)("explains a failed run with code %s, and Try again resumes", async (code, explanation) => {
    const failure: AgentStreamPart = code
      ? { type: "error", error: "The model returned nothing useful.", code }
      : { type: "error", error: "The model returned nothing useful." };
    const adapter = createScriptedAdapter({ runs: [[failure], reply("Back on track.")] });
    render(<AgentChat adapter={adapter} storageKey={false} />);
    sendMessage(root(), "Hi");
    await waitUntil(() => root().querySelector(".error") !== null, "the error");
    const error = root().querySelector<HTMLElement>('.error[role="alert"]')!;
    expect(error.textContent).toContain(explanation);
    if (code) expect(error.textContent).toContain("The model returned nothing useful.");
    click(button(error, "Try again"));
    await waitUntil(() => text().includes("Back on track."), "the retried reply");
    expect(root().querySelector(".error")).toBeNull();
    expect(adapter.requests[1]!.messages.map((message) => message.role)).toEqual(["user"]);
  });

  it.each([
    ["worker_died", "The on-device model stopped", true, true],
    ["quota_exceeded", "This device has no room for the model.", false, true],
    ["unsupported_device", "This browser cannot run the on-device model.", false, true],
    ["rate_limited", "That's a lot of messages", true, false],
  ] as const)("chooses the next step for code %s from the code: Try again %s, the other adapter %s", async (code, explanation, retry, offerOther) => {
    const device = createScriptedAdapter({ id: "device", label: "On this device", runs: [[{ type: "error", error: "It stopped.", code }]] });
    const cloud = createScriptedAdapter({ id: "cloud", label: "Claude (cloud)", runs: [reply("From the cloud.")] });
    render(<AgentChat adapters={[device, cloud]} storageKey={false} />);
    sendMessage(root(), "Hi");
    await waitUntil(() => root().querySelector(".error") !== null, "the error");
    const error = root().querySelector<HTMLElement>('.error[role="alert"]')!;
    expect(error.dataset.code).toBe(code);
    expect(error.textContent).toContain(explanation);
    expect(findButton(error, "Try again") !== undefined).toBe(retry);
    expect(findButton(error, "Use Claude (cloud)") !== undefined).toBe(offerOther);
    if (!offerOther) return;
    click(button(error, "Use Claude (cloud)"));
    await waitUntil(() => root().querySelector(".error") === null || findButton(root(), "Try again") !== undefined, "the switch");
    sendMessage(root(), "Hi again");
    await waitUntil(() => text().includes("From the cloud."), "the cloud's reply");
  });

  it("offers no other adapter when there is none", async () => {
    const device = createScriptedAdapter({ runs: [[{ type: "error", error: "It stopped.", code: "unsupported_device" }]] });
    render(<AgentChat adapter={device} storageKey={false} />);
    sendMessage(root(), "Hi");
    await waitUntil(() => root().querySelector(".error") !== null, "the error");
    expect(root().querySelectorAll(".error button")).toHaveLength(0);
  });

  it("New chat clears the conversation and its storage", async () => {
    storeConversation("kept", stored);
    render(<AgentChat adapter={createScriptedAdapter({ runs: [] })} storageKey="kept" />);
    expect(root().querySelectorAll(".log > .message")).toHaveLength(2);
    click(button(root(), "New chat"));
    expect(root().querySelectorAll(".log > .message")).toHaveLength(0);
    expect(sessionStorage.getItem("kept")).toBeNull();
    expect(button(root(), "New chat").disabled).toBe(true);
  });
});
