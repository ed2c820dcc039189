// @vitest-environment happy-dom
import { act } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { defineWebTool } from "../runtime/core/define-web-tool.js";
import { personClick } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import type { ToolConfirmationRequest } from "../runtime/session/tool-policy.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { AgentChat, type AgentChatProps } from "./agent-chat.js";
import { sendMessage } from "./test-fixtures/chat-queries.js";
import { useMountedChat } from "./test-fixtures/mounted-chat.js";
import { tick, waitUntil } from "./test-fixtures/mount.js";
import { WebAgentsProvider } from "./web-agents-provider.js";

// <AgentChat>'s confirmTools and confirmTool reach its session's tool policy:
// a destructive place_order and an unannotated add_to_cart, each counting its runs.
const { render, root } = useMountedChat();
const ran = { place_order: 0, add_to_cart: 0 };
beforeEach(() => {
  ran.place_order = 0;
  ran.add_to_cart = 0;
});

const tools = [
  defineWebTool({ name: "place_order", description: "Place the order.", annotations: { destructiveHint: true }, execute: () => ++ran.place_order }),
  defineWebTool({ name: "add_to_cart", description: "Add the product.", execute: () => ++ran.add_to_cart }),
];
const callOf = (name: string): AgentStreamPart[] => [
  { type: "message-start", messageId: `m-${name}` },
  { type: "tool-call", messageId: `m-${name}`, id: `c-${name}`, name, input: {} },
  { type: "text-delta", messageId: `m-${name}`, delta: "All done." },
  { type: "finish", reason: "stop" },
];

const tool = (name: string) => root().querySelector<HTMLElement>(`.tool[data-tool="${name}"]`);

async function chatCalling(name: string, props: Pick<AgentChatProps, "confirmTools" | "confirmTool">) {
  const adapter = createScriptedAdapter({ runs: [callOf(name)] });
  render(
    <WebAgentsProvider tools={tools}>
      <AgentChat adapter={adapter} storageKey={false} cursor={false} {...props} />
    </WebAgentsProvider>,
  );
  await tick();
  sendMessage(root(), `Call ${name}`);
}

describe("<AgentChat> tool policy props", () => {
  it("confirmTool answering true runs a destructiveHint tool with no Allow / Don't allow, and is asked with the call", async () => {
    const asked: ToolConfirmationRequest[] = [];
    await chatCalling("place_order", { confirmTool: (request) => (asked.push(request), request.tool === "place_order" || undefined) });
    await waitUntil(() => (root().textContent ?? "").includes("All done."), "the reply");
    expect(tool("place_order")?.dataset.state).toBe("done");
    expect(ran.place_order).toBe(1);
    expect(root().querySelector(".confirm")).toBeNull();
    expect(asked).toEqual([expect.objectContaining({ tool: "place_order", callId: "c-place_order", annotations: { destructiveHint: true } })]);
  });

  it("confirmTool answering false declines it: 'Not allowed', never run", async () => {
    await chatCalling("place_order", { confirmTool: () => false });
    await waitUntil(() => tool("place_order")?.dataset.state === "error", "the declined call");
    expect(tool("place_order")?.querySelector(".state")?.textContent).toBe("Not allowed");
    expect(ran.place_order).toBe(0);
  });

  it('confirmTools="all" holds an unannotated tool for Allow, which runs it on the person\'s click', async () => {
    await chatCalling("add_to_cart", { confirmTools: "all" });
    await waitUntil(() => tool("add_to_cart")?.dataset.state === "awaiting-confirmation", "the held call");
    await waitUntil(() => tool("add_to_cart")?.querySelector("button.allow") != null, "Allow");
    const allow = tool("add_to_cart")!.querySelector<HTMLButtonElement>("button.allow")!;
    expect(ran.add_to_cart).toBe(0);
    act(() => personClick(allow));
    await waitUntil(() => tool("add_to_cart")?.dataset.state === "done", "the allowed call");
    expect(ran.add_to_cart).toBe(1);
  });

  it("without confirmTools the same unannotated tool runs unasked (the default policy is destructive only)", async () => {
    await chatCalling("add_to_cart", {});
    await waitUntil(() => tool("add_to_cart")?.dataset.state === "done", "the call");
    expect(ran.add_to_cart).toBe(1);
    expect(root().querySelector(".confirm")).toBeNull();
  });
});
