// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineWebAgent } from "../agent/define-web-agent.js";
import type { WebAgentStep } from "../agent/web-agent.js";
import { defineWebTool } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import { createScriptedAdapter } from "../testing/create-scripted-adapter.js";
import type { AgentStreamPart } from "./agent-stream-part.js";

const orders = defineWebAgent({ id: "orders", instructions: "Track orders.", tools: ["track_order"] });
const shopper = defineWebAgent({ id: "shopper", instructions: "Help people shop.", agents: [orders] });

let registrations: AbortController;
beforeEach(async () => {
  installHappyDomWebMCP();
  registrations = new AbortController();
  await registerWebTool(
    defineWebTool({
      name: "track_order",
      description: "Where an order is.",
      inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
      execute: ({ id }: { id: number }) => `Order ${id} is in transit.`,
    }),
    { signal: registrations.signal },
  );
});
afterEach(() => {
  registrations.abort();
  resetWebMCP();
});

const parentRun: AgentStreamPart[] = [
  { type: "message-start", messageId: "p" },
  { type: "tool-call", messageId: "p", id: "d1", name: "delegate_to_orders", input: { task: "Track order 7" } },
  { type: "text-delta", messageId: "p", delta: "Order 7 is in transit." },
  { type: "finish", reason: "stop" },
];
const subRun: AgentStreamPart[] = [
  { type: "message-start", messageId: "s" },
  { type: "tool-call", messageId: "s", id: "t1", name: "track_order", input: { id: 7 } },
  { type: "text-delta", messageId: "s", delta: "In transit." },
  { type: "finish", reason: "stop" },
];

describe("agent.invoke", () => {
  it("runs the agent with no chat and resolves to its text, every step (a sub-agent's included) and the messages", async () => {
    const adapter = createScriptedAdapter({ runs: [parentRun, subRun] });
    const seen: WebAgentStep[] = [];
    const result = await shopper.invoke("Where is order 7?", { adapter, onStep: (step) => seen.push(step) });

    expect(result.text).toBe("Order 7 is in transit.");
    expect(result.steps.map((step) => [step.tool, step.state, step.agent])).toEqual([
      ["delegate_to_orders", "done", undefined],
      ["track_order", "done", "orders"],
    ]);
    expect(result.steps[1]!.output?.content[0]?.text).toBe("Order 7 is in transit.");
    expect(result.messages[0]).toMatchObject({ role: "user", parts: [{ type: "text", text: "Where is order 7?" }] });
    expect(seen.map((step) => `${step.tool}:${step.state}`)).toEqual([
      "delegate_to_orders:running",
      "track_order:running",
      "track_order:done",
      "delegate_to_orders:done",
    ]);
  });

  it("rejects with the adapter's message and code when the run fails", async () => {
    const adapter = createScriptedAdapter({ runs: [[{ type: "error", error: "Too many requests.", code: "rate_limited" }]] });
    await expect(shopper.invoke("hi", { adapter })).rejects.toMatchObject({ message: "Too many requests.", code: "rate_limited" });
  });

  it("rejects with an AbortError when its signal aborts mid-run", async () => {
    const adapter = createScriptedAdapter({ runs: [parentRun, subRun], delay: 50 });
    const controller = new AbortController();
    const pending = shopper.invoke("hi", { adapter, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("runs on one shared createCloudAdapter() when given no adapter (no server here: a network error)", async () => {
    await expect(shopper.invoke("hi")).rejects.toMatchObject({ code: "network" });
    const { sharedCloudAdapter } = await import("../adapters/cloud/shared-cloud-adapter.js");
    expect(sharedCloudAdapter()).toBe(sharedCloudAdapter());
    expect(sharedCloudAdapter().id).toBe("cloud");
  });
});
