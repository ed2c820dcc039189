// @vitest-environment happy-dom
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineWebAgent } from "../runtime/agent/define-web-agent.js";
import { defineWebTool } from "../runtime/core/define-web-tool.js";
import { registerWebTool } from "../runtime/core/register-web-tool.js";
import { personClick } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { mount, waitUntil, type Mounted } from "./test-fixtures/mount.js";
import { useWebAgent, type UseWebAgentOptions, type WebAgentRun } from "./use-web-agent.js";

let mounted: Mounted;
let registration: AbortController;
beforeEach(async () => {
  mounted = mount();
  registration = new AbortController();
  const getCart = defineWebTool({ name: "get_cart", description: "Read the cart.", execute: () => ({ items: 2 }) });
  await registerWebTool(getCart, { signal: registration.signal });
});
afterEach(() => {
  registration.abort();
  mounted.cleanup();
});

const agent = defineWebAgent({ id: "shopper", instructions: "Help people shop." });
const withCart: AgentStreamPart[] = [
  { type: "message-start", messageId: "m" },
  { type: "tool-call", messageId: "m", id: "c1", name: "get_cart", input: {} },
  { type: "text-delta", messageId: "m", delta: "Two items." },
  { type: "finish", reason: "stop" },
];

let run: WebAgentRun;
function Runner(props: { adapter: ReturnType<typeof createScriptedAdapter> }) {
  run = useWebAgent(agent, { adapter: props.adapter });
  return <p>{run.status}</p>;
}

describe("useWebAgent", () => {
  it("runs on the adapter the person chose in the chat (remembered), with the chat never opened", async () => {
    const local = createScriptedAdapter({ id: "on-device", label: "On this device", runs: [withCart] });
    const cloud = createScriptedAdapter({ id: "cloud", label: "Cloud", runs: [[{ type: "error", error: "Chat isn't configured on this site." }]] });
    localStorage.setItem("shop:chat:adapter", "on-device");
    function Chosen() {
      run = useWebAgent(agent, { adapter: cloud, adapters: [local, cloud], storageKey: "shop:chat" });
      return <p>{run.status}</p>;
    }
    try {
      mounted.render(<Chosen />);
      let result: Awaited<ReturnType<WebAgentRun["invoke"]>>;
      await act(async () => {
        result = await run.invoke("What is in my cart?");
      });
      expect(run.error).toBeUndefined();
      expect(result!.text).toBe("Two items.");
      expect([local.requests.length, cloud.requests.length]).toEqual([1, 0]);
      // Nothing chosen: the given adapter.
      localStorage.removeItem("shop:chat:adapter");
      await act(async () => void (await run.invoke("Again")));
      expect(run.error?.message).toBe("Chat isn't configured on this site.");
      expect([local.requests.length, cloud.requests.length]).toEqual([1, 1]);
    } finally {
      localStorage.removeItem("shop:chat:adapter");
    }
  });

  it("runs the agent with live steps and resolves to the result", async () => {
    const adapter = createScriptedAdapter({ runs: [withCart], delay: 5 });
    mounted.render(<Runner adapter={adapter} />);
    expect(run.status).toBe("idle");
    let result: Awaited<ReturnType<WebAgentRun["invoke"]>>;
    let pending: Promise<unknown> | undefined;
    act(() => {
      pending = run.invoke("What is in my cart?").then((value) => (result = value));
    });
    expect(run.status).toBe("running");
    await waitUntil(() => run.status === "done");
    await act(() => pending);
    expect(result!.text).toBe("Two items.");
    expect(run.text).toBe("Two items.");
    expect(run.steps).toEqual([expect.objectContaining({ id: "c1", tool: "get_cart", state: "done" })]);
    expect(run.messages).toHaveLength(2);
  });

  it("reports steps live: a call parked on the person's click shows awaiting-confirmation with its prompt", async () => {
    const confirm = document.createElement("button");
    confirm.id = "confirm";
    document.body.append(confirm);
    const gated = defineWebTool({
      name: "place_order",
      description: "Place the order.",
      execute: async (_input, { waitForClick }) => {
        await waitForClick(confirm, "Click Place order.");
        return "placed";
      },
    });
    await registerWebTool(gated, { signal: registration.signal });
    const adapter = createScriptedAdapter({
      runs: [[{ type: "message-start", messageId: "m" }, { type: "tool-call", messageId: "m", id: "c1", name: "place_order", input: {} }, { type: "finish", reason: "stop" }]],
    });
    mounted.render(<Runner adapter={adapter} />);
    act(() => void run.invoke("Order"));
    await waitUntil(() => run.steps[0]?.state === "awaiting-confirmation", "the parked step");
    expect(run.steps[0]).toMatchObject({ tool: "place_order", prompt: "Click Place order." });
    expect(run.status).toBe("running");
    act(() => personClick(confirm));
    await waitUntil(() => run.status === "done", "the run to finish");
    expect(run.steps[0]!.state).toBe("done");
    confirm.remove();
  });

  it("never rejects: a failed run resolves undefined and sets error with its code", async () => {
    const adapter = createScriptedAdapter({ runs: [[{ type: "error", error: "Too many requests.", code: "rate_limited" }]] });
    mounted.render(<Runner adapter={adapter} />);
    let result: unknown = "unset";
    await act(async () => {
      result = await run.invoke("hi");
    });
    expect(result).toBeUndefined();
    expect(run.status).toBe("error");
    expect(run.error).toEqual({ message: "Too many requests.", code: "rate_limited" });
    // An empty message is a failure too, not a throw.
    await act(async () => {
      result = await run.invoke("  ");
    });
    expect(run.status).toBe("error");
    expect(run.error?.message).toMatch(/non-empty message/);
  });

  it("stop aborts the run and goes back to idle; unmounting aborts too", async () => {
    const adapter = createScriptedAdapter({ runs: [withCart, withCart], delay: 200 });
    const signals: AbortSignal[] = [];
    const original = adapter.run;
    adapter.run = (request) => {
      signals.push(request.signal);
      return original(request);
    };
    mounted.render(<Runner adapter={adapter} />);
    let result: unknown = "unset";
    let pending: Promise<unknown> | undefined;
    act(() => {
      pending = run.invoke("hi").then((value) => (result = value));
    });
    await waitUntil(() => signals.length === 1);
    act(() => run.stop());
    await act(() => pending);
    expect(result).toBeUndefined();
    expect(run.status).toBe("idle");
    expect(signals[0]!.aborted).toBe(true);

    act(() => void run.invoke("again"));
    await waitUntil(() => signals.length === 2);
    mounted.render(<></>);
    expect(signals[1]!.aborted).toBe(true);
  });

  it("passes confirmTools and the latest render's confirmTool to agent.invoke: a held call it allows runs, one it does not is declined", async () => {
    let cleared = 0;
    const clearCart = defineWebTool({
      name: "clear_cart",
      description: "Empty the cart.",
      annotations: { destructiveHint: true },
      execute: () => {
        cleared += 1;
        return "emptied";
      },
    });
    await registerWebTool(clearCart, { signal: registration.signal });
    const call = (name: string): AgentStreamPart[] => [
      { type: "message-start", messageId: "m" },
      { type: "tool-call", messageId: "m", id: `c-${name}`, name, input: {} },
      { type: "text-delta", messageId: "m", delta: "Done." },
      { type: "finish", reason: "stop" },
    ];
    const adapter = createScriptedAdapter({ runs: [call("clear_cart"), call("clear_cart"), call("get_cart")] });
    function Policy(props: Pick<UseWebAgentOptions, "confirmTool" | "confirmTools">) {
      run = useWebAgent(agent, { adapter, ...props });
      return <p>{run.status}</p>;
    }
    const warn = console.warn;
    const warnings: unknown[] = [];
    console.warn = (...args: unknown[]) => void warnings.push(args[0]);
    try {
      // No confirmTool: no one to ask, so the destructive call is declined and never runs.
      mounted.render(<Policy />);
      await act(() => run.invoke("Empty my cart"));
      expect(run.steps[0]).toMatchObject({ tool: "clear_cart", state: "error" });
      expect(run.steps[0]!.error).toMatch(/declined/);
      expect(cleared).toBe(0);

      // The same hook, re-rendered with a confirmTool that allows it: the call runs.
      const asked: unknown[] = [];
      mounted.render(<Policy confirmTool={(request) => (asked.push(request), request.tool === "clear_cart" || undefined)} />);
      await act(() => run.invoke("Empty my cart"));
      expect(run.steps[0]).toMatchObject({ tool: "clear_cart", state: "done" });
      expect(cleared).toBe(1);
      expect(asked).toEqual([expect.objectContaining({ tool: "clear_cart", callId: "c-clear_cart", annotations: { destructiveHint: true } })]);

      // confirmTools "all" holds the unannotated get_cart too; this confirmTool does not allow it.
      mounted.render(<Policy confirmTools="all" confirmTool={(request) => request.tool === "clear_cart" || undefined} />);
      await act(() => run.invoke("What is in my cart?"));
      expect(run.steps[0]).toMatchObject({ tool: "get_cart", state: "error" });
      expect(run.steps[0]!.error).toMatch(/declined/);
    } finally {
      console.warn = warn;
    }
    expect(warnings.some((message) => String(message).includes("clear_cart"))).toBe(true);
  });
});
