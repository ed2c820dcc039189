// @vitest-environment happy-dom
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { emitAgentEvent } from "../runtime/core/agent-events.js";
import { askToolConfirmation } from "../runtime/core/tool-confirmation.js";
import type { AdapterStatus } from "../runtime/session/agent-adapter.js";
import type { ToolPart } from "../runtime/session/agent-message.js";
import { RUN_ERROR_CODES } from "../runtime/errors/error-codes.js";
import { whileAsking } from "../runtime/session/held-call-question.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "./agent-chat.js";
import { DEFAULT_CHAT_LABELS, mergeChatLabels, sameChatLabels, type ChatLabels } from "./chat-labels.js";
import { ChatLabelsContext } from "./chat-labels-context.js";
import { explainAdapterStatus } from "./explain-adapter-status.js";
import { adviseRunError } from "./explain-run-error.js";
import { ModelPicker } from "./model-picker.js";
import { followParkedTargets } from "./parked-targets.js";
import { button, chatRoot, click, typeInto } from "./test-fixtures/chat-queries.js";
import { chatStrings, englishLeftIn } from "./test-fixtures/default-chat-strings.js";
import { createModelAdapterDouble, DOUBLE_MODELS } from "./test-fixtures/model-adapter-double.js";
import { waitUntil } from "./test-fixtures/mount.js";
import { useMountedChat } from "./test-fixtures/mounted-chat.js";
import { ToolCallView } from "./tool-call-view.js";

/** Labels whose every word is a marker `‹key›` (`‹key:value,…›` for a function's), to see which keys a screen uses. */
function markerLabels(): ChatLabels {
  const mark = (key: string, value: unknown): unknown =>
    typeof value === "function"
      ? (...args: unknown[]) => `‹${key}:${args.map((arg) => (typeof arg === "object" ? "usage" : String(arg))).join(",")}›`
      : typeof value === "string"
        ? `‹${key}›`
        : Object.fromEntries(Object.entries(value as object).map(([inner, innerValue]) => [inner, mark(`${key}.${inner}`, innerValue)]));
  return mark("labels", DEFAULT_CHAT_LABELS) as ChatLabels;
}

/** Every key a labels object has, nested ones as `errors.busy`. */
const keysOf = (labels: object, prefix = ""): string[] =>
  Object.entries(labels).flatMap(([key, value]) => (typeof value === "object" ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`]));

const { render, container } = useMountedChat();

/** Types `text` and presses the (relabelled) Send. */
function send(root: ShadowRoot, text: string): void {
  typeInto(root.querySelector("textarea")!, text);
  click(button(root, "‹labels.send›"));
}

/** The chat's words on screen now: its text and the attributes a person hears or sees. */
function shown(container: ParentNode): string {
  const parts: string[] = [];
  for (const element of [container, ...container.querySelectorAll("*")] as Element[]) {
    if (element.shadowRoot) parts.push(shown(element.shadowRoot));
    for (const name of ["aria-label", "aria-valuetext", "placeholder", "title"]) {
      const value = element.getAttribute?.(name);
      if (value) parts.push(value);
    }
  }
  parts.push(container.textContent ?? "");
  return parts.join("\n");
}

describe("mergeChatLabels", () => {
  it("keeps every default a partial leaves out, one level into the nested groups", () => {
    const merged = mergeChatLabels({ send: "Senden", errors: { busy: "Beschäftigt." }, toolStates: { done: "Fertig" } });
    expect(merged.send).toBe("Senden");
    expect(merged.stop).toBe(DEFAULT_CHAT_LABELS.stop);
    expect(merged.errors.busy).toBe("Beschäftigt.");
    expect(merged.errors.network).toBe(DEFAULT_CHAT_LABELS.errors.network);
    expect(merged.toolStates).toEqual({ ...DEFAULT_CHAT_LABELS.toolStates, done: "Fertig" });
    expect(merged.adapterStatus).toEqual(DEFAULT_CHAT_LABELS.adapterStatus);
    expect(mergeChatLabels(undefined)).toBe(DEFAULT_CHAT_LABELS);
  });

  it("lists the defaults' words with the values cut out, for the checks that none is left", () => {
    expect(chatStrings(DEFAULT_CHAT_LABELS)).toEqual(expect.arrayContaining(["Download (", "Waiting for you to click", "about", "min left", "Don't allow", "You:"]));
  });

  it("sees an equal inline object as no change", () => {
    const goTo = (control: string) => `Zu ${control}`;
    expect(sameChatLabels({ send: "Senden", goTo, errors: { busy: "B." } }, { send: "Senden", goTo, errors: { busy: "B." } })).toBe(true);
    expect(sameChatLabels({ send: "Senden" }, { send: "Schicken" })).toBe(false);
    expect(sameChatLabels({ errors: { busy: "B." } }, { errors: { busy: "C." } })).toBe(false);
    expect(sameChatLabels({ send: "Senden" }, undefined)).toBe(false);
  });

  it("words every run error code and a coded adapter error from labels.errors, never from the message", () => {
    const labels = markerLabels();
    for (const code of RUN_ERROR_CODES) {
      expect(adviseRunError({ code, message: "The runtime's words." }, labels).explanation).toBe(`‹labels.errors.${code}›`);
    }
    const failed: AdapterStatus = { state: "error", error: "The runtime's words.", code: "load_failed" };
    expect(explainAdapterStatus(failed, labels)).toBe("‹labels.adapterStatus.error:‹labels.errors.load_failed››");
    expect(explainAdapterStatus({ state: "error", error: "No code." }, labels)).toBe("‹labels.adapterStatus.error:No code.›");
  });
});

describe("every word of the chat is a label", () => {
  it("shows only the labels it is given, through setup, conversation, tool calls, a held call and a failed run; and every key shows somewhere", async () => {
    const labels = markerLabels();
    const seen: string[] = [];
    const look = () => seen.push(shown(container()));
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);

    // Setup: an on-device adapter beside a second one (the switcher), two models (the picker), its download.
    const device = createModelAdapterDouble([], { label: "Device" });
    const failing = createScriptedAdapter({
      id: "second",
      label: "Second",
      runs: [
        [
          { type: "message-start", messageId: "m1" },
          { type: "step-finish", step: 0, usage: { promptTokens: 10, cachedPromptTokens: 4, outputTokens: 3, timeToFirstTokenMs: 200, decodeTokensPerSecond: 9 } },
          { type: "text-delta", messageId: "m1", delta: "Answer." },
          { type: "finish", reason: "stop" },
        ],
        [{ type: "error", error: "Busy here.", code: "busy" }],
      ],
      delay: 20,
    });
    render(<AgentChat adapters={[device, failing]} labels={labels} storageKey={false} usage />);
    const root = () => chatRoot(container());
    look();
    click(button(root(), "‹labels.downloadButton:‹labels.size:400000000››"));
    act(() => device.progress(0.1));
    now += 4_000;
    act(() => device.progress(0.3));
    look();
    act(() => device.finish());

    // The other adapter's states, one by one.
    const select = root().querySelector("select")!;
    act(() => {
      select.value = "second";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const states: AdapterStatus[] = [
      { state: "loading" },
      { state: "loading", progress: 0.5 },
      { state: "loading", progress: 0.9, stage: "starting" },
      { state: "error", error: "Out of memory.", code: "load_failed" },
      { state: "downloading", progress: 0.2 },
      { state: "ready" },
    ];
    for (const status of states) {
      act(() => failing.setStatus(status));
      look();
    }

    // A run: Working… and Stop while it streams, the usage line after; then a run that fails (Try again, Use the other adapter).
    send(root(), "hi");
    look();
    await waitUntil(() => root().querySelector("[data-usage]") !== null, "the run to finish");
    look();
    send(root(), "again");
    await waitUntil(() => root().querySelector(".error") !== null);
    look();

    // Tool calls in every state, a parked one with its control, a held one, a declined one, a sub-agent's run.
    const control = document.createElement("button");
    control.textContent = "Pay";
    document.body.append(control);
    followParkedTargets();
    emitAgentEvent({ type: "park", tool: "pay", callId: "parked", prompt: "Click Pay.", target: control });
    const held = new AbortController();
    const asking = whileAsking("held", { action: "place order", reason: "untrusted-content" }, () =>
      askToolConfirmation({ tool: "place_order", callId: "held", prompt: "The runtime's words.", signal: held.signal }),
    );
    const tool = (part: Partial<ToolPart>): ToolPart => ({ type: "tool", id: "t", name: "get_cart", input: {}, state: "done", ...part });
    const parts: ToolPart[] = [
      tool({ id: "running", state: "running" }),
      tool({ id: "done", output: { content: [{ type: "text", text: "ok" }] } }),
      tool({ id: "failed", state: "error", error: "[x]" }),
      tool({ id: "cancelled", state: "cancelled", error: "[cancelled]" }),
      tool({ id: "declined", state: "error", error: "[declined]", errorCode: "declined" }),
      tool({ id: "waiting", state: "awaiting-confirmation" }),
      tool({ id: "parked", name: "pay", state: "awaiting-confirmation", prompt: "Click Pay." }),
      tool({ id: "held", name: "place_order", state: "awaiting-confirmation", prompt: "The runtime's words." }),
      tool({ id: "delegate", name: "delegate_to_orders", agent: { id: "orders", messages: [] } }),
    ];
    render(
      <ChatLabelsContext.Provider value={labels}>
        {parts.map((part) => (
          <ToolCallView key={part.id} part={part} />
        ))}
        <ModelPicker models={[{ ...DOUBLE_MODELS[0]!, cached: true, selected: true }, DOUBLE_MODELS[1]!]} onSelect={() => {}} pending="large" />
      </ChatLabelsContext.Provider>,
    );
    look();
    held.abort();
    await asking;
    control.remove();

    // The stopped mark: a reply stopped before its first word.
    const slow = createScriptedAdapter({ runs: [[{ type: "message-start", messageId: "m" }, { type: "text-delta", messageId: "m", delta: "Never." }]], delay: 10_000 });
    render(<AgentChat adapter={slow} labels={labels} storageKey={false} />);
    send(chatRoot(container()), "hi");
    click(button(chatRoot(container()), "‹labels.stop›"));
    await waitUntil(() => chatRoot(container()).querySelector("[data-stopped]") !== null);
    look();

    const all = seen.join("\n");
    // Around the markers (their key names are English words too), nothing of the defaults.
    let unmarked = all;
    while (/‹[^‹›]*›/.test(unmarked)) unmarked = unmarked.replace(/‹[^‹›]*›/g, " ");
    expect(englishLeftIn(unmarked, chatStrings(DEFAULT_CHAT_LABELS))).toEqual([]);
    const unused = keysOf(DEFAULT_CHAT_LABELS)
      .filter((key) => !key.startsWith("errors.") || key === "errors.busy" || key === "errors.load_failed")
      .filter((key) => !all.includes(`‹labels.${key}`));
    expect(unused).toEqual([]);
  });
});
