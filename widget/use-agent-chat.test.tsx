// @vitest-environment happy-dom
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { createModelAdapterDouble } from "./test-fixtures/model-adapter-double.js";
import { mount, tick, waitUntil, type Mounted } from "./test-fixtures/mount.js";
import { useAgentChat, type AgentChatState, type UseAgentChatOptions } from "./use-agent-chat.js";

let mounted: Mounted;
beforeEach(() => {
  mounted = mount();
});
afterEach(() => mounted.cleanup());

let chat: AgentChatState;
function Chat(props: UseAgentChatOptions) {
  chat = useAgentChat(props);
  return null;
}

const reply = (text: string) => [
  { type: "message-start", messageId: `m-${text}` } as const,
  { type: "text-delta", messageId: `m-${text}`, delta: text } as const,
  { type: "finish", reason: "stop" } as const,
];

describe("useAgentChat", () => {
  it("uses the given adapter, and switches among several, remembering the choice by id", async () => {
    const cloud = createScriptedAdapter({ id: "cloud", label: "Cloud", runs: [reply("from cloud")] });
    const local = createModelAdapterDouble([reply("from device")]);
    const adapters = [cloud, local];
    mounted.render(<Chat adapters={adapters} />);
    expect(chat.adapter).toBe(cloud);
    expect(chat.adapters).toEqual(adapters);
    expect(chat.models).toEqual([]);

    act(() => chat.selectAdapter("on-device"));
    expect(chat.adapter).toBe(local);
    expect(chat.adapterStatus).toMatchObject({ state: "needs-download" });
    expect(chat.models.map((model) => model.id)).toEqual(["small", "large"]);
    expect(localStorage.getItem("web-agents:chat:adapter")).toBe("on-device");
    act(() => chat.selectAdapter("nope"));
    expect(chat.adapter).toBe(local);

    // A fresh mount (a reload) starts on the remembered adapter.
    mounted.render(<></>);
    mounted.render(<Chat adapters={adapters} />);
    expect(chat.adapter).toBe(local);
  });

  it("starts on `adapter` among `adapters`, and remembers nothing with storageKey false", () => {
    const cloud = createScriptedAdapter({ id: "cloud", runs: [] });
    const local = createModelAdapterDouble();
    mounted.render(<Chat adapters={[cloud, local]} adapter={local} storageKey={false} />);
    expect(chat.adapter).toBe(local);
    act(() => chat.selectAdapter("cloud"));
    expect(chat.adapter).toBe(cloud);
    expect(localStorage.length).toBe(0);
  });

  it("keeps the conversation when switching adapters, with a storage key", async () => {
    const first = createScriptedAdapter({ id: "first", runs: [reply("one")] });
    const second = createScriptedAdapter({ id: "second", runs: [reply("two")] });
    mounted.render(<Chat adapters={[first, second]} storageKey="switching" />);
    act(() => chat.send("hello"));
    await waitUntil(() => chat.status === "idle" && chat.messages.length === 2);
    act(() => chat.selectAdapter("second"));
    expect(chat.messages).toHaveLength(2);
    act(() => chat.send("again"));
    await waitUntil(() => chat.messages.length === 4);
    expect(second.requests[0]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("selectModel switches models and reports a rejection as setupError", async () => {
    const local = createModelAdapterDouble();
    mounted.render(<Chat adapter={local} />);
    await act(() => chat.selectModel("large"));
    expect(local.selected).toEqual(["large"]);
    expect(chat.models.find((model) => model.selected)?.id).toBe("large");
    expect(chat.adapterStatus).toEqual({ state: "needs-download", bytes: 1_200_000_000 });

    local.failNextSelect("A reply is in progress.");
    await act(() => chat.selectModel("small"));
    expect(chat.setupError).toBe("A reply is in progress.");
    expect(chat.pendingModel).toBeUndefined();
  });

  it("prepare downloads with a signal that cancelPrepare aborts; a finished download makes it ready", async () => {
    const local = createModelAdapterDouble();
    mounted.render(<Chat adapter={local} />);
    let prepared: Promise<void> | undefined;
    act(() => {
      prepared = chat.prepare();
    });
    expect(chat.adapterStatus).toEqual({ state: "downloading", progress: 0 });
    const signal = local.prepareSignal!;
    act(() => chat.cancelPrepare());
    expect(signal.aborted).toBe(true);
    await act(() => prepared!);
    expect(chat.setupError).toBeUndefined();
    expect(chat.adapterStatus.state).toBe("needs-download");

    act(() => {
      prepared = chat.prepare();
    });
    act(() => local.progress(0.5));
    expect(chat.adapterStatus).toEqual({ state: "downloading", progress: 0.5 });
    act(() => local.finish());
    await act(() => prepared!);
    expect(chat.adapterStatus).toEqual({ state: "ready" });
    expect(chat.models[0]).toMatchObject({ id: "small", cached: true, selected: true });
    await tick();
  });

  it("reports a failed prepare as setupError", async () => {
    const local = createModelAdapterDouble();
    local.prepare = async () => {
      throw new Error("The disk is full.");
    };
    mounted.render(<Chat adapter={local} />);
    await act(() => chat.prepare());
    expect(chat.setupError).toBe("The disk is full.");
  });
});
