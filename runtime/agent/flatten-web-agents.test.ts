import { describe, expect, it } from "vitest";
import { defineWebAgent } from "./define-web-agent.js";
import { flattenWebAgents } from "./flatten-web-agents.js";
import type { WebAgent } from "./web-agent.js";

const instructions = "Help.";

describe("flattenWebAgents", () => {
  it("maps every agent and sub-agent by id, parents first", () => {
    const leaf = defineWebAgent({ id: "leaf", instructions });
    const middle = defineWebAgent({ id: "middle", instructions, agents: [leaf] });
    const other = defineWebAgent({ id: "other", instructions });
    const top = defineWebAgent({ id: "top", instructions, agents: [middle, other] });
    const byId = flattenWebAgents([top]);
    expect([...byId.keys()]).toEqual(["top", "middle", "leaf", "other"]);
    expect(byId.get("leaf")).toBe(leaf);
  });

  it("counts the same agent once wherever it appears", () => {
    const shared = defineWebAgent({ id: "shared", instructions });
    const a = defineWebAgent({ id: "a", instructions, agents: [shared] });
    const b = defineWebAgent({ id: "b", instructions, agents: [shared] });
    expect([...flattenWebAgents([a, b, shared]).keys()]).toEqual(["a", "shared", "b"]);
  });

  it("is empty for no agents", () => {
    expect(flattenWebAgents([]).size).toBe(0);
  });

  it("throws a TypeError naming a duplicate id", () => {
    const one = defineWebAgent({ id: "orders", instructions });
    const two = defineWebAgent({ id: "orders", instructions });
    const parent = defineWebAgent({ id: "parent", instructions, agents: [one] });
    expect(() => flattenWebAgents([one, two])).toThrow(TypeError);
    expect(() => flattenWebAgents([parent, two])).toThrow('The agent id "orders" is used twice');
  });

  it("refuses entries that did not come from defineWebAgent", () => {
    const fake = { id: "x", agents: [] } as unknown as WebAgent;
    expect(() => flattenWebAgents([fake])).toThrow(TypeError);
    expect(() => flattenWebAgents([fake])).toThrow("agents[0] did not come from defineWebAgent");
    expect(() => flattenWebAgents("x" as unknown as WebAgent[])).toThrow("flattenWebAgents needs an array");
  });
});
