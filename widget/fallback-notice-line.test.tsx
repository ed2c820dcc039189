// @vitest-environment happy-dom
// <AgentChat> with createFallbackAdapter over two ADAPTER TEST DOUBLES
// (createScriptedAdapter): the status it shows and the switch line.
import { describe, expect, it } from "vitest";
import { createFallbackAdapter } from "../runtime/adapters/fallback/create-fallback-adapter.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "./agent-chat.js";
import { findButton, sendMessage } from "./test-fixtures/chat-queries.js";
import { waitUntil } from "./test-fixtures/mount.js";
import { useMountedChat } from "./test-fixtures/mounted-chat.js";

const { render, root } = useMountedChat();
const notice = () => root().querySelector("[data-fallback-notice]");
const reply = (id: string, words: string): AgentStreamPart[] => [
  { type: "message-start", messageId: id },
  { type: "text-delta", messageId: id, delta: words },
  { type: "finish", reason: "stop" },
];

describe("<AgentChat adapter={createFallbackAdapter([local, cloud])}> with adapter test doubles", () => {
  it("shows the best status: the download card while neither runs, the composer once the cloud is ready", async () => {
    const local = createScriptedAdapter({ id: "local", label: "On this device", runs: [], status: { state: "needs-download", bytes: 400_000_000 } });
    const cloud = createScriptedAdapter({ id: "cloud", label: "Cloud", runs: [], status: { state: "unavailable", reason: "Chat is off." } });
    render(<AgentChat adapter={createFallbackAdapter([local, cloud])} storageKey={false} cursor={false} />);
    await waitUntil(() => root().querySelector('[aria-label="Download the model"]') !== null, "the download card");
    expect(findButton(root(), "Download (400 MB)")).toBeDefined();
    expect(root().querySelector("textarea")!.disabled).toBe(true);
    cloud.setStatus({ state: "ready" });
    await waitUntil(() => !root().querySelector("textarea")!.disabled, "the composer to open");
    expect(root().querySelector('[aria-label="Download the model"]')).toBeNull();
  });

  it("a device failure mid-turn: one line says the turn continues on the cloud, the cloud's answer follows, no error; the line goes with the next message", async () => {
    const local = createScriptedAdapter({
      id: "local",
      label: "On this device",
      runs: [
        [
          { type: "message-start", messageId: "a1" },
          { type: "text-delta", messageId: "a1", delta: "Let me" },
          { type: "error", error: "The model worker stopped.", code: "worker_died" },
        ],
        reply("a2", "Hello again."),
      ],
    });
    const cloud = createScriptedAdapter({ id: "cloud", label: "Cloud", runs: [reply("b1", "Socks are in your cart.")] });
    render(<AgentChat adapter={createFallbackAdapter([local, cloud])} storageKey={false} cursor={false} />);
    await waitUntil(() => !root().querySelector("textarea")!.disabled, "the composer");
    sendMessage(root(), "Buy socks");
    await waitUntil(() => (root().textContent ?? "").includes("Socks are in your cart."), "the cloud's answer");
    expect(notice()?.textContent).toBe("The on-device model stopped (its worker stopped); continuing with Cloud.");
    expect(notice()?.getAttribute("role")).toBe("status");
    expect(findButton(root(), "Try again")).toBeUndefined();
    expect(root().textContent).not.toContain("The model worker stopped.");

    sendMessage(root(), "Hi");
    await waitUntil(() => (root().textContent ?? "").includes("Hello again."), "the next answer, on the device");
    expect(notice()).toBeNull();
  });

  it("renders no line for other adapters", async () => {
    const plain = createScriptedAdapter({ runs: [reply("m1", "Hi.")] });
    render(<AgentChat adapter={plain} storageKey={false} cursor={false} />);
    sendMessage(root(), "Hello");
    await waitUntil(() => (root().textContent ?? "").includes("Hi."), "the answer");
    expect(notice()).toBeNull();
  });
});
