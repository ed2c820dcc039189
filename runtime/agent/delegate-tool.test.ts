import { describe, expect, it } from "vitest";
import { defineWebAgent } from "./define-web-agent.js";
import { delegateTool } from "./delegate-tool.js";

describe("delegateTool", () => {
  it("names the tool after the sub-agent and takes a task and an optional context", () => {
    const tool = delegateTool(defineWebAgent({ id: "orders", instructions: "Orders." }));
    expect(tool.name).toBe("delegate_to_orders");
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        task: { type: "string", description: expect.any(String) },
        context: { type: "string", description: expect.any(String) },
      },
      required: ["task"],
      additionalProperties: false,
    });
  });

  it("describes the sub-agent, how a delegate works, and its tools", () => {
    const sub = defineWebAgent({
      id: "orders",
      description: "Answers questions about past orders.",
      instructions: "Orders.",
      tools: ["go_to", "list_orders"],
    });
    const { description } = delegateTool(sub);
    expect(description.startsWith("Answers questions about past orders. ")).toBe(true);
    expect(description).toContain("hands the task to the orders agent");
    expect(description).toContain("sees only the task and context");
    expect(description.endsWith(" Its tools: go_to, list_orders.")).toBe(true);
  });

  it("lists no tools when the sub-agent has every page tool or a filter", () => {
    const every = delegateTool(defineWebAgent({ id: "a", instructions: "A." }));
    const filtered = delegateTool(defineWebAgent({ id: "b", instructions: "B.", tools: (tools) => tools }));
    expect(every.description.startsWith("Hand a task to the a agent. ")).toBe(true);
    expect(every.description).not.toContain("Its tools");
    expect(filtered.description).not.toContain("Its tools");
  });

  it("says so when the list is empty", () => {
    expect(delegateTool(defineWebAgent({ id: "a", instructions: "A.", tools: [] })).description).toContain(
      "Its tools: none.",
    );
  });
});
