import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { jsonSchema, tool, ToolLoopAgent } from "ai";
import { describe, expect, it, vi } from "vitest";
import { defineWebAgent } from "../agent/index.js";
import { scriptedModel, textStep, toolStep } from "./test-support/scripted-model.js";
import { toToolLoopAgent } from "./to-tool-loop-agent.js";

const orders = defineWebAgent({
  id: "orders",
  instructions: ["Answer with the order's id and status."],
  maxSteps: 1,
});

const trackOrder = (execute: (input: { id: string }) => Promise<string>) =>
  tool({
    description: "Track an order.",
    inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
    execute,
  });

describe("toToolLoopAgent", () => {
  it("builds a ToolLoopAgent with the agent's instructions, the given tools and a loop", async () => {
    const model = scriptedModel([toolStep("track_order", { id: "1042" }), textStep("Order 1042 has shipped.")]);
    const execute = vi.fn(async () => "shipped");
    const agent = toToolLoopAgent(defineWebAgent({ id: "support", instructions: ["Orders ship from Lyon."] }), {
      model,
      system: "Be brief.",
      tools: { track_order: trackOrder(execute) },
    });
    expect(agent).toBeInstanceOf(ToolLoopAgent);
    expect(agent.id).toBe("support");
    const result = await agent.stream({ prompt: "Where is 1042?" });
    expect(await result.text).toBe("Order 1042 has shipped.");
    expect(execute).toHaveBeenCalledWith({ id: "1042" }, expect.anything());
    expect(model.doStreamCalls).toHaveLength(2);
    const system = (model.doStreamCalls[0] as LanguageModelV3CallOptions).prompt[0];
    expect(system).toMatchObject({ role: "system", content: expect.stringContaining("Be brief.\n\nAbout this site:\nOrders ship from Lyon.") });
  });

  it("stops at the agent's maxSteps", async () => {
    const model = scriptedModel([toolStep("track_order", { id: "1" }), textStep("never reached")]);
    const agent = toToolLoopAgent(orders, { model, tools: { track_order: trackOrder(async () => "ok") } });
    const result = await agent.stream({ prompt: "Track 1" });
    expect(await result.steps).toHaveLength(1);
    expect(model.doStreamCalls).toHaveLength(1);
    const system = (model.doStreamCalls[0] as LanguageModelV3CallOptions).prompt[0];
    expect(system).toMatchObject({ role: "system", content: expect.stringContaining("About this site:\nAnswer with the order's id and status.") });
  });

  it("resolves the agent's own model id with the key from env", () => {
    const agent = toToolLoopAgent(defineWebAgent({ id: "cheap", instructions: ["x"], model: "openai/gpt-5.5-mini" }), {
      env: { OPENAI_API_KEY: "sk-test-SECRET-123" },
    });
    expect(agent).toBeInstanceOf(ToolLoopAgent);
  });

  it("throws a TypeError when no model is named", () => {
    expect(() => toToolLoopAgent(orders)).toThrow(/names no model/);
  });
});
