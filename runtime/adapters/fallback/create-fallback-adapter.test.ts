// @vitest-environment happy-dom
// The fallback logic against adapter TEST DOUBLES that fail in scripted ways
// (the real local and cloud adapters are in fallback.browser.test.ts), and
// once through the real session with a real page tool.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineWebTool } from "../../core/define-web-tool.js";
import { registerWebTool } from "../../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../../core/test-fixtures/happy-dom-webmcp.js";
import type { ToolOutput } from "../../core/tool-output.js";
import type { AdapterStatus, AgentAdapter, AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentMessage } from "../../session/agent-message.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { createAgentSession } from "../../session/create-agent-session.js";
import { createFallbackAdapter } from "./create-fallback-adapter.js";

type Step = AgentStreamPart | { call: { id: string; name: string; input: unknown } };

/** A test double of an adapter: replays `steps`, running `{ call }` steps through `req.callTool`; records each request. */
function doubleAdapter(id: string, steps: Step[], status: AdapterStatus = { state: "ready" }) {
  const requests: AgentMessage[][] = [];
  const listeners = new Set<() => void>();
  let current = status;
  const adapter = {
    id,
    label: id === "local" ? "On this device" : "Cloud",
    requests,
    status: () => current,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setStatus(next: AdapterStatus) {
      current = next;
      listeners.forEach((listener) => listener());
    },
    async *run(req: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
      requests.push(structuredClone(req.messages));
      for (const step of steps) {
        if ("call" in step) {
          const output = await req.callTool(step.call);
          yield output.isError ? { type: "tool-error", id: step.call.id, error: output.content[0]?.text ?? "" } : { type: "tool-result", id: step.call.id, output };
        } else yield step;
      }
    },
  };
  return adapter;
}

const user: AgentMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Buy socks" }] };
const start = (messageId: string): AgentStreamPart => ({ type: "message-start", messageId });
const say = (messageId: string, delta: string): AgentStreamPart => ({ type: "text-delta", messageId, delta });
const callPart = (messageId: string, id: string): AgentStreamPart => ({ type: "tool-call", messageId, id, name: "add_to_cart", input: { sku: "socks" } });
const workerDied: AgentStreamPart = { type: "error", error: "The on-device model stopped.", code: "worker_died" };
const finish: AgentStreamPart = { type: "finish", reason: "stop" };

/** A request with a counting tool, and the parts the run yields. */
async function drive(adapter: AgentAdapter, controller = new AbortController()) {
  const executed: string[] = [];
  const req: AgentRunRequest = {
    messages: [user],
    tools: [],
    signal: controller.signal,
    callTool: async (call): Promise<ToolOutput> => {
      executed.push(call.name);
      return { content: [{ type: "text", text: "Added socks." }] };
    },
  };
  const parts: AgentStreamPart[] = [];
  for await (const part of adapter.run(req)) parts.push(part);
  return { parts, executed };
}

describe("createFallbackAdapter with adapter test doubles", () => {
  it("status: the first ready adapter's, else the best state in order (the earlier adapter on a tie); the same object", () => {
    const local = doubleAdapter("local", [], { state: "needs-download", bytes: 10 });
    const cloud = doubleAdapter("cloud", [], { state: "loading" });
    const fallback = createFallbackAdapter([local, cloud]);
    expect(fallback.status()).toEqual({ state: "loading" });
    cloud.setStatus({ state: "ready" });
    expect(fallback.status()).toBe(cloud.status());
    local.setStatus({ state: "ready" });
    expect(fallback.status()).toBe(local.status());
    local.setStatus({ state: "error", error: "Setup failed." });
    cloud.setStatus({ state: "unavailable", reason: "Chat is off." });
    expect(fallback.status()).toEqual({ state: "error", error: "Setup failed." });
    cloud.setStatus({ state: "error", error: "Cloud failed." });
    expect(fallback.status()).toEqual({ state: "error", error: "Setup failed." });
    // An adapter without status() is always ready.
    const plain: AgentAdapter = { id: "plain", label: "Plain", run: async function* () {} };
    expect(createFallbackAdapter([local, plain]).status()).toEqual({ state: "ready" });
  });

  it("subscribe hears every adapter's status changes until unsubscribed; prepare, models and selectModel are forwarded", async () => {
    const local = doubleAdapter("local", [], { state: "needs-download" });
    const cloud = doubleAdapter("cloud", [], { state: "error", error: "x" });
    const prepared: string[] = [];
    const selected: string[] = [];
    Object.assign(local, {
      prepare: async () => void prepared.push("local"),
      models: () => [{ id: "m", label: "M", brief: "b" }],
      selectModel: async (id: string) => void selected.push(id),
    });
    const fallback = createFallbackAdapter([local, cloud]);
    const heard = vi.fn();
    const unsubscribe = fallback.subscribe(heard);
    local.setStatus({ state: "downloading", progress: 0.5 });
    cloud.setStatus({ state: "loading" });
    expect(heard).toHaveBeenCalledTimes(2);
    unsubscribe();
    cloud.setStatus({ state: "ready" });
    expect(heard).toHaveBeenCalledTimes(2);
    cloud.setStatus({ state: "error", error: "x" });
    await fallback.prepare();
    expect(prepared).toEqual(["local"]);
    expect(fallback.models?.()).toEqual([{ id: "m", label: "M", brief: "b" }]);
    await fallback.selectModel?.("m");
    expect(selected).toEqual(["m"]);
    expect(fallback.label).toBe("On this device, then Cloud");
    expect(fallback.id).toBe("fallback");
  });

  it("a worker crash after a finished tool call continues the same turn on the next adapter from that call: it runs once, and the notice says so", async () => {
    const local = doubleAdapter("local", [
      start("a1"),
      callPart("a1", "c1"),
      { call: { id: "c1", name: "add_to_cart", input: { sku: "socks" } } },
      { type: "step-finish", step: 1 },
      start("a2"),
      say("a2", "I have added the so"),
      workerDied,
    ]);
    const cloud = doubleAdapter("cloud", [start("b1"), say("b1", "Socks are in your cart."), finish]);
    const fallback = createFallbackAdapter([local, cloud]);
    const { parts, executed } = await drive(fallback);
    expect(executed).toEqual(["add_to_cart"]);
    expect(parts.some((part) => part.type === "error")).toBe(false);
    expect(parts.at(-1)).toEqual(finish);
    expect(parts.slice(-3, -1)).toEqual([start("b1"), say("b1", "Socks are in your cart.")]);
    // The cloud read the turn through the finished call and its result, not the half sentence after it.
    const [sent] = cloud.requests;
    expect(sent).toHaveLength(2);
    expect(sent![0]).toEqual(user);
    expect(sent![1]!.parts).toEqual([
      { type: "tool", id: "c1", name: "add_to_cart", input: { sku: "socks" }, state: "done", output: { content: [{ type: "text", text: "Added socks." }] } },
    ]);
    expect(fallback.notice()).toEqual({
      text: "The on-device model stopped (its worker stopped); continuing with Cloud.",
      from: "local",
      to: "cloud",
      code: "worker_died",
    });
  });

  it("a lost device mid-step with a call not yet run: the call is closed as cancelled, never run, and the next adapter starts from the person's message", async () => {
    const local = doubleAdapter("local", [start("a1"), callPart("a1", "c1"), { type: "error", error: "GPU device lost", code: "generation_failed" }]);
    const cloud = doubleAdapter("cloud", [start("b1"), callPart("b1", "c2"), { call: { id: "c2", name: "add_to_cart", input: { sku: "socks" } } }, start("b2"), say("b2", "Done."), finish]);
    const { parts, executed } = await drive(createFallbackAdapter([local, cloud]));
    expect(executed).toEqual(["add_to_cart"]);
    expect(parts).toContainEqual({ type: "tool-error", id: "c1", error: "Error [cancelled]: The on-device model stopped before this call ran.", code: "cancelled" });
    expect(cloud.requests[0]).toEqual([user]);
    expect(parts.at(-1)).toEqual(finish);
  });

  it("does not fail over on the person's Stop, a tool error, a cloud-side error or an error without a code", async () => {
    const cases: { name: string; steps: Step[]; abort?: boolean }[] = [
      { name: "stop", steps: [start("a1"), say("a1", "Hel"), { type: "finish", reason: "aborted" }], abort: true },
      { name: "device error after Stop", steps: [start("a1"), workerDied], abort: true },
      { name: "tool error", steps: [start("a1"), callPart("a1", "c1"), { type: "tool-error", id: "c1", error: "Error [invalid_input]: sku is required." }, start("a2"), say("a2", "Which one?"), finish] },
      { name: "network", steps: [start("a1"), { type: "error", error: "Offline.", code: "network" }] },
      { name: "no code", steps: [start("a1"), { type: "error", error: "Something else." }] },
    ];
    for (const { name, steps, abort } of cases) {
      const local = doubleAdapter("local", steps);
      const cloud = doubleAdapter("cloud", [start("b1"), finish]);
      const controller = new AbortController();
      if (abort) controller.abort();
      const fallback = createFallbackAdapter([local, cloud]);
      const { parts } = await drive(fallback, controller);
      expect(cloud.requests, name).toEqual([]);
      expect(parts, name).toEqual(steps);
      expect(fallback.notice(), name).toBeUndefined();
    }
  });

  it("with no ready adapter after the failed one, the device's error ends the run as it was, its open calls closed", async () => {
    const local = doubleAdapter("local", [start("a1"), callPart("a1", "c1"), workerDied]);
    const cloud = doubleAdapter("cloud", [start("b1"), finish], { state: "unavailable", reason: "Chat is off." });
    const fallback = createFallbackAdapter([local, cloud]);
    const { parts } = await drive(fallback);
    expect(parts.slice(-2)).toEqual([{ type: "tool-error", id: "c1", error: "Error [cancelled]: The on-device model stopped before this call ran.", code: "cancelled" }, workerDied]);
    expect(cloud.requests).toEqual([]);
    expect(fallback.notice()).toBeUndefined();
  });

  it("starts on the first ready adapter; a chain of three moves on twice; failOverOn narrows the codes; the notice clears when a run starts", async () => {
    const local = doubleAdapter("local", [start("a1"), workerDied], { state: "needs-download" });
    const cloud = doubleAdapter("cloud", [start("b1"), finish]);
    const fallback = createFallbackAdapter([local, cloud]);
    await drive(fallback);
    expect(local.requests).toEqual([]);
    expect(cloud.requests).toHaveLength(1);

    const first = doubleAdapter("local", [start("a1"), workerDied]);
    const second = doubleAdapter("local", [start("b1"), { type: "error", error: "Out of memory.", code: "generation_failed" }]);
    Object.assign(second, { id: "local-2", label: "Smaller model" });
    const third = doubleAdapter("cloud", [start("c1"), say("c1", "Done."), finish]);
    const chain = createFallbackAdapter([first, second, third]);
    const { parts } = await drive(chain);
    expect(parts.at(-1)).toEqual(finish);
    expect(third.requests).toHaveLength(1);
    expect(chain.notice()).toMatchObject({ from: "local-2", to: "cloud", code: "generation_failed" });

    const narrowed = createFallbackAdapter([doubleAdapter("local", [start("a1"), workerDied]), doubleAdapter("cloud", [finish])], { failOverOn: ["load_failed"] });
    expect((await drive(narrowed)).parts.at(-1)).toEqual(workerDied);

    // The notice of the last switch stays until the next run starts.
    const flaky = doubleAdapter("local", [start("a1"), workerDied]);
    const again = createFallbackAdapter([flaky, doubleAdapter("cloud", [start("b1"), finish])]);
    await drive(again);
    expect(again.notice()).toBeDefined();
    flaky.setStatus({ state: "needs-download" });
    await drive(again);
    expect(again.notice()).toBeUndefined();
  });

  it("says what to pass when the arguments are wrong", () => {
    const cloud = doubleAdapter("cloud", []);
    expect(() => createFallbackAdapter([])).toThrow(/pass at least one adapter/);
    expect(() => createFallbackAdapter(cloud as never)).toThrow(/takes an array of adapters/);
    expect(() => createFallbackAdapter([cloud, {} as never])).toThrow(/adapters\[1\] is not an adapter/);
    expect(() => createFallbackAdapter([cloud, cloud])).toThrow(/adapters\[1\] is listed twice/);
    expect(() => createFallbackAdapter([{ id: "x", run: cloud.run } as never])).toThrow(/adapters\[0\] is not an adapter \(an object with id, label and run\)/);
    expect(() => createFallbackAdapter([cloud], { failOverOn: ["device_lost" as never] })).toThrow(/"device_lost" is not a run error code/);
    expect(() => createFallbackAdapter([cloud], "x" as never)).toThrow(/options must be an object/);
  });
});

describe("createFallbackAdapter in the real session, with a real page tool and adapter test doubles", () => {
  let registrations: AbortController;
  let added = 0;
  beforeEach(async () => {
    installHappyDomWebMCP();
    registrations = new AbortController();
    added = 0;
    await registerWebTool(
      defineWebTool({
        name: "add_to_cart",
        description: "Add a product to the cart.",
        inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
        execute: (input: { sku: string }) => (added++, `Added ${input.sku}.`),
      }),
      { signal: registrations.signal },
    );
  });
  afterEach(() => {
    registrations.abort();
    resetWebMCP();
  });

  it("the session ends idle with the cloud's answer, the call done once, and no error", async () => {
    const local = doubleAdapter("local", [
      start("a1"),
      callPart("a1", "c1"),
      { call: { id: "c1", name: "add_to_cart", input: { sku: "socks" } } },
      start("a2"),
      say("a2", "Adding"),
      workerDied,
    ]);
    const cloud = doubleAdapter("cloud", [start("b1"), say("b1", "Socks are in your cart."), finish]);
    const session = createAgentSession(createFallbackAdapter([local, cloud]), { storageKey: false });
    const done = new Promise<void>((resolve) => session.subscribe(() => session.getSnapshot().status !== "streaming" && resolve()));
    session.send("Buy socks");
    await done;
    const { status, error, messages } = session.getSnapshot();
    expect(error).toBeUndefined();
    expect(status).toBe("idle");
    expect(added).toBe(1);
    expect(messages.at(-1)).toEqual({ id: "b1", role: "assistant", parts: [{ type: "text", text: "Socks are in your cart." }] });
    expect(messages.flatMap((message) => message.parts.filter((part) => part.type === "tool"))).toMatchObject([{ id: "c1", state: "done" }]);
    session.dispose();
  });
});
