// @vitest-environment happy-dom
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineWebTool } from "../runtime/core/define-web-tool.js";
import { personClick } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AdapterStatus, AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentMessage } from "../runtime/session/agent-message.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "./agent-chat.js";
import { button, chatRoot, click, findButton, sendMessage, typeInto } from "./test-fixtures/chat-queries.js";
import { createModelAdapterDouble } from "./test-fixtures/model-adapter-double.js";
import { mount, tick, waitUntil, type Mounted } from "./test-fixtures/mount.js";
import { WebAgentsProvider } from "./web-agents-provider.js";

let mounted: Mounted;
beforeEach(() => {
  mounted = mount();
});
afterEach(() => {
  mounted.cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const root = () => chatRoot(mounted.container);
const text = () => root().textContent ?? "";
const field = () => root().querySelector("textarea")!;
const reply = (words: string): AgentStreamPart[] => [
  { type: "message-start", messageId: `m-${words}` },
  { type: "text-delta", messageId: `m-${words}`, delta: words },
  { type: "finish", reason: "stop" },
];

/** Stores a conversation where the chat with `storageKey` will load it. */
function storeConversation(storageKey: string, messages: AgentMessage[]) {
  sessionStorage.setItem(storageKey, JSON.stringify({ v: 1, messages }));
}

describe("<AgentChat> shell", () => {
  it("renders in an open shadow root of a data-web-agents-ui host, with a polite log and a labelled composer", () => {
    const adapter = createScriptedAdapter({ runs: [] });
    mounted.render(<AgentChat adapter={adapter} storageKey={false} style={{ height: 400 }} />);
    const host = mounted.container.querySelector<HTMLElement>("[data-web-agents-ui]")!;
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
    mounted.render(<AgentChat storageKey={false} />);
    await tick();
    expect(text()).toContain("Connecting…");
    expect(text()).not.toMatch(/download/i);
    expect(field().disabled).toBe(true);
    expect(String((fetch.mock.calls[0] as unknown[] | undefined)?.[0])).toContain("/api/chat");
  });
});

describe("<AgentChat> adapter status", () => {
  const statuses: [AdapterStatus, RegExp][] = [
    [{ state: "unavailable", reason: "Chat isn't configured on this site." }, /Chat isn't configured on this site\./],
    [{ state: "needs-download", bytes: 400_000_000 }, /Download the model above/],
    [{ state: "downloading", progress: 0.25 }, /once the download finishes/],
    [{ state: "loading", progress: 0.5 }, /Loading the model from this device…/],
    [{ state: "loading" }, /Connecting…/],
    [{ state: "error", error: "WebGPU device lost." }, /could not start: WebGPU device lost\./],
  ];

  it.each(statuses)("explains %j in the composer and disables it", (status, explanation) => {
    const adapter = createScriptedAdapter({ runs: [], status });
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
    const explain = root().querySelector(".explain")!;
    expect(explain.textContent).toMatch(explanation);
    expect(field().disabled).toBe(true);
    expect(field().getAttribute("aria-describedby")).toBe(explain.id);
    expect(button(root(), "Send").disabled).toBe(true);
  });

  it("is ready: no explanation, and Send sends", async () => {
    const adapter = createScriptedAdapter({ runs: [reply("Hello!")] });
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
    expect(root().querySelector(".explain")).toBeNull();
    expect(field().disabled).toBe(false);
    expect(button(root(), "Send").disabled).toBe(true);
    sendMessage(root(), "hi");
    await waitUntil(() => text().includes("Hello!"));
    expect(field().value).toBe("");
    expect(root().querySelector('[data-role="user"]')?.textContent).toContain("hi");
  });

  it("sends with Enter and adds a line with Shift+Enter", async () => {
    const adapter = createScriptedAdapter({ runs: [reply("Got it.")] });
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
    typeInto(field(), "two\nlines");
    act(() => {
      field().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", shiftKey: true, bubbles: true }));
    });
    expect(adapter.requests).toHaveLength(0);
    act(() => {
      field().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    await waitUntil(() => text().includes("Got it."));
    expect(adapter.requests[0]!.messages[0]!.parts).toEqual([{ type: "text", text: "two\nlines" }]);
  });

  it("shows the download card for needs-download: size, note, and a Download button that calls prepare", async () => {
    const local = createModelAdapterDouble([], { note: "No WebGPU in this browser: the model runs on the processor (CPU)." });
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    const card = root().querySelector('[aria-label="Download the model"]')!;
    expect(card.textContent).toContain("Qwen3 0.6B runs on this device, after a one-time download of 400 MB.");
    expect(card.textContent).toContain("No WebGPU in this browser: the model runs on the processor (CPU).");
    click(button(root(), "Download (400 MB)"));
    expect(local.prepareSignal).toBeInstanceOf(AbortSignal);
    expect(text()).toContain("Downloading Qwen3 0.6B…");
  });

  it("shows download progress with percent, MB of total and time left, and Cancel aborts the signal", async () => {
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);
    const local = createModelAdapterDouble();
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    click(button(root(), "Download (400 MB)"));
    expect(text()).toContain("0% · 0 of 400 MB");
    now += 10_000;
    act(() => local.progress(0.1));
    const card = root().querySelector('[aria-label="Downloading the model"]')!;
    expect(card.querySelector("progress")?.getAttribute("value")).toBe("0.1");
    // 10% took 10 s, so the other 90% takes about 90 s.
    expect(card.textContent).toContain("10% · 40 of 400 MB · about 2 min left");
    const signal = local.prepareSignal!;
    click(button(root(), "Cancel"));
    expect(signal.aborted).toBe(true);
    await tick();
    expect(root().querySelector('[aria-label="Download the model"]')).not.toBeNull();
  });

  it("words a load from this device as a load, never as a download", () => {
    const adapter = createScriptedAdapter({ runs: [], status: { state: "loading", progress: 0.4 } });
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
    expect(text()).toContain("Loading the model from this device… 40%");
    expect(text()).not.toMatch(/download/i);
    expect(root().querySelector('progress[aria-label="Loading progress"]')).not.toBeNull();
  });

  it("shows a setup error with Try again that calls prepare again", () => {
    const local = createModelAdapterDouble();
    local.setStatus({ state: "error", error: "The download was interrupted." });
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    expect(root().querySelector('[aria-label="Setup failed"]')?.textContent).toContain("The download was interrupted.");
    click(button(root(), "Try again"));
    expect(local.prepareSignal).toBeDefined();
  });
});

describe("<AgentChat> a chat that cannot run", () => {
  it("shows the reason in the empty conversation instead of the invitation", () => {
    const reason = "Chat isn't configured on this site.";
    const adapter = createScriptedAdapter({ runs: [], status: { state: "unavailable", reason } });
    mounted.render(<AgentChat adapter={adapter} storageKey={false} emptyText="Ask me to find, add or order something." />);
    expect(root().querySelector(".log .empty")?.textContent).toBe(reason);
    expect(text()).not.toContain("Ask me to find");
    expect(field().disabled).toBe(true);
    // Once it can run, the invitation is back.
    act(() => adapter.setStatus({ state: "ready" }));
    expect(root().querySelector(".log .empty")?.textContent).toBe("Ask me to find, add or order something.");
  });
});

describe("<AgentChat> adapters and models", () => {
  it("switches adapters with a labelled select and remembers the choice by id", () => {
    const cloud = createScriptedAdapter({ id: "cloud", label: "Claude (cloud)", runs: [] });
    const local = createModelAdapterDouble();
    mounted.render(<AgentChat adapters={[cloud, local]} />);
    const select = root().querySelector("select")!;
    expect(root().querySelector(`label[for="${select.id}"]`)?.textContent).toBe("Run on");
    expect([...select.options].map((option) => option.textContent)).toEqual(["Claude (cloud)", "On this device"]);
    expect(select.value).toBe("cloud");
    act(() => {
      select.value = "on-device";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(text()).toContain("Download (400 MB)");
    expect(localStorage.getItem("web-agents:chat:adapter")).toBe("on-device");

    mounted.render(<></>);
    mounted.render(<AgentChat adapters={[cloud, local]} />);
    expect(root().querySelector("select")!.value).toBe("on-device");
  });

  it("lists models with label, brief, size, cached, recommended and selected; picking one calls selectModel", async () => {
    const local = createModelAdapterDouble();
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    const picker = root().querySelector(".models")!;
    expect(picker.querySelector("summary")?.textContent).toContain("Model: Qwen3 0.6B");
    const options = [...picker.querySelectorAll("label.model")].map((label) => label.textContent);
    expect(options[0]).toBe("Qwen3 0.6BRecommended400 MB downloadFast, for simple pages.");
    expect(options[1]).toBe("Qwen3 1.7B1.2 GB downloadBetter at many-step tasks.");
    const radios = [...picker.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(radios.map((radio) => radio.checked)).toEqual([true, false]);
    click(radios[1]!);
    await tick();
    expect(local.selected).toEqual(["large"]);
    expect(radios.map((radio) => radio.checked)).toEqual([false, true]);
    expect(text()).toContain("Download (1.2 GB)");
  });

  it("closes the model picker on a choice, whether it opened itself or the person opened it", async () => {
    const local = createModelAdapterDouble();
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    const picker = root().querySelector<HTMLDetailsElement>(".models")!;
    // Open by itself before the first download.
    expect(picker.open).toBe(true);
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!);
    await tick();
    expect(local.selected).toEqual(["large"]);
    expect(picker.open).toBe(false);
    // Opened by the person, closed by the next choice.
    act(() => {
      picker.open = true;
      picker.dispatchEvent(new Event("toggle"));
    });
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[0]!);
    await tick();
    expect(local.selected).toEqual(["large", "small"]);
    expect(picker.open).toBe(false);
  });

  it("says why a model switch is refused while the remembered model is starting, instead of ignoring the click", async () => {
    const local = createModelAdapterDouble();
    local.setStatus({ state: "loading", progress: 1, stage: "starting" });
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    local.failNextSelect("The model is still starting on this device. Switch models once it is ready.");
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!);
    await tick();
    expect(local.selected).toEqual(["large"]);
    const card = root().querySelector('[aria-label="Starting the model"]')!;
    expect(card.querySelector('[role="alert"]')?.textContent).toBe("The model is still starting on this device. Switch models once it is ready.");
  });

  it("shows a cached model as on this device, and a failed switch as an alert", async () => {
    const local = createModelAdapterDouble();
    mounted.render(<AgentChat adapter={local} storageKey={false} />);
    click(button(root(), "Download (400 MB)"));
    act(() => local.finish());
    await tick();
    expect(root().querySelector("label.model")?.textContent).toContain("On this device");
    expect(field().disabled).toBe(false);
    local.failNextSelect("Wait for the reply to finish before switching models.");
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!);
    await tick();
    expect(root().querySelector('[role="alert"]')?.textContent).toBe("Wait for the reply to finish before switching models.");
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
    mounted.render(<AgentChat adapter={createScriptedAdapter({ runs: [] })} storageKey="stored" />);
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
    mounted.render(<AgentChat adapter={createScriptedAdapter({ runs: [] })} storageKey="stored" />);
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
    mounted.render(
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
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
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
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
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
    mounted.render(<AgentChat adapter={adapter} storageKey={false} />);
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
    mounted.render(<AgentChat adapters={[device, cloud]} storageKey={false} />);
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
    mounted.render(<AgentChat adapter={device} storageKey={false} />);
    sendMessage(root(), "Hi");
    await waitUntil(() => root().querySelector(".error") !== null, "the error");
    expect(root().querySelectorAll(".error button")).toHaveLength(0);
  });

  it("New chat clears the conversation and its storage", async () => {
    storeConversation("kept", stored);
    mounted.render(<AgentChat adapter={createScriptedAdapter({ runs: [] })} storageKey="kept" />);
    expect(root().querySelectorAll(".log > .message")).toHaveLength(2);
    click(button(root(), "New chat"));
    expect(root().querySelectorAll(".log > .message")).toHaveLength(0);
    expect(sessionStorage.getItem("kept")).toBeNull();
    expect(button(root(), "New chat").disabled).toBe(true);
  });
});
