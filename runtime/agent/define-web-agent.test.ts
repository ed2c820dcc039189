import { describe, expect, it } from "vitest";
import { defineWebAgent } from "./define-web-agent.js";
import { isWebAgent } from "./is-web-agent.js";
import type { ToolFilter, WebAgentConfig } from "./web-agent.js";

const instructions = "You help people shop.";

/** Calls defineWebAgent with a config the types would refuse, as plain JavaScript can. */
function defineLoosely(config: unknown) {
  return () => defineWebAgent(config as WebAgentConfig);
}

describe("defineWebAgent", () => {
  it("fills the defaults", () => {
    const agent = defineWebAgent({ id: "shopper", instructions });
    expect(agent.description).toBe("Hand a task to the shopper agent.");
    expect(agent.instructions).toEqual(["You help people shop."]);
    expect(agent.agents).toEqual([]);
    expect("tools" in agent).toBe(false);
    expect("model" in agent).toBe(false);
    expect("maxSteps" in agent).toBe(false);
    expect(typeof agent.invoke).toBe("function");
  });

  it("keeps the other fields as given", () => {
    const agent = defineWebAgent({
      id: "orders",
      description: "Answers questions about past orders.",
      instructions,
      model: "anthropic/claude-sonnet-4-5",
      maxSteps: 4,
    });
    expect(agent).toMatchObject({
      id: "orders",
      description: "Answers questions about past orders.",
      model: "anthropic/claude-sonnet-4-5",
      maxSteps: 4,
    });
  });

  it("trims instruction lines, drops empty ones and splits line breaks", () => {
    const agent = defineWebAgent({ id: "a", instructions: ["  one  ", "", "   ", "two\n  three\r\n\n"] });
    expect(agent.instructions).toEqual(["one", "two", "three"]);
    const fromString = defineWebAgent({ id: "b", instructions: "\n  first\n  second\n" });
    expect(fromString.instructions).toEqual(["first", "second"]);
  });

  it("freezes the agent and every array in it", () => {
    const sub = defineWebAgent({ id: "sub", instructions });
    const agent = defineWebAgent({ id: "top", instructions: ["a", "b"], tools: ["x"], agents: [sub] });
    expect(Object.isFrozen(agent)).toBe(true);
    expect(Object.isFrozen(agent.instructions)).toBe(true);
    expect(Object.isFrozen(agent.tools)).toBe(true);
    expect(Object.isFrozen(agent.agents)).toBe(true);
    expect(Object.isFrozen(agent.agents[0])).toBe(true);
    expect(() => {
      (agent as { id: string }).id = "other";
    }).toThrow(TypeError);
  });

  it("copies the lists it is given", () => {
    const lines = ["a"];
    const tools = ["x"];
    const agent = defineWebAgent({ id: "a", instructions: lines, tools });
    lines.push("b");
    tools.push("y");
    expect(agent.instructions).toEqual(["a"]);
    expect(agent.tools).toEqual(["x"]);
  });

  it("keeps a tools function as it is", () => {
    const filter: ToolFilter = (tools) => tools;
    expect(defineWebAgent({ id: "a", instructions, tools: filter }).tools).toBe(filter);
  });

  it("lists each tool id once, in order", () => {
    expect(defineWebAgent({ id: "a", instructions, tools: ["b", "a", "b"] }).tools).toEqual(["b", "a"]);
  });

  it("marks its agents structurally, with a non-enumerable marker", () => {
    const agent = defineWebAgent({ id: "a", instructions });
    expect(isWebAgent(agent)).toBe(true);
    expect(isWebAgent({ ...agent })).toBe(false);
    expect(isWebAgent(null)).toBe(false);
    expect(Object.keys(agent)).not.toContain(Symbol.for("webmcp-agents.web-agent"));
    // What another copy of this module would make: the same registered symbol.
    const fromOtherCopy = { ...agent, [Symbol.for("webmcp-agents.web-agent")]: true };
    expect(isWebAgent(fromOtherCopy)).toBe(true);
    expect(defineWebAgent({ id: "top", instructions, agents: [fromOtherCopy] }).agents[0]).toBe(fromOtherCopy);
  });

  it("allows the same sub-agent under two parents", () => {
    const search = defineWebAgent({ id: "search", instructions });
    const a = defineWebAgent({ id: "a", instructions, agents: [search] });
    const b = defineWebAgent({ id: "b", instructions, agents: [search] });
    expect(defineWebAgent({ id: "top", instructions, agents: [a, b] }).agents).toEqual([a, b]);
  });
});

describe("defineWebAgent errors", () => {
  it("refuses a config that is not an object", () => {
    for (const config of [undefined, null, "shopper", [], 3]) {
      expect(defineLoosely(config)).toThrow(TypeError);
      expect(defineLoosely(config)).toThrow(/needs a config object, defineWebAgent\(\{ id, instructions \}\)/);
    }
  });

  it("refuses an unknown option and lists the known ones", () => {
    const define = defineLoosely({ id: "a", instructions, agent: [] });
    expect(define).toThrow(TypeError);
    expect(define).toThrow(
      'defineWebAgent: unknown option "agent". Known options: id, description, instructions, tools, agents, model, maxSteps.',
    );
  });

  it("takes a spread agent as a config", () => {
    const orders = defineWebAgent({ id: "orders", instructions, tools: ["go_to"], maxSteps: 3 });
    const copy = defineWebAgent({ ...orders, id: "orders2" });
    expect(copy).toMatchObject({ id: "orders2", instructions: [instructions], tools: ["go_to"], maxSteps: 3 });
    expect(copy.invoke).not.toBe(orders.invoke);
  });

  it("refuses a bad id and says the allowed pattern", () => {
    for (const id of [undefined, "", "two words", "a/b", "a".repeat(65), 7]) {
      const define = defineLoosely({ id, instructions });
      expect(define).toThrow(TypeError);
      expect(define).toThrow("id must be 1 to 64 of a-z A-Z 0-9 _ . - (/^[a-zA-Z0-9_.-]{1,64}$/)");
    }
  });

  it("refuses a description that is not a string", () => {
    const define = defineLoosely({ id: "a", instructions, description: 3 });
    expect(define).toThrow(TypeError);
    expect(define).toThrow('defineWebAgent("a"): description must be a string');
  });

  it("refuses a model that is not a string, or is empty", () => {
    const define = defineLoosely({ id: "a", instructions, model: { provider: "anthropic" } });
    expect(define).toThrow(TypeError);
    expect(define).toThrow('model must be a "<provider>/<model>" id string');
    expect(defineLoosely({ id: "a", instructions, model: "" })).toThrow(/model is empty; give a "<provider>\/<model>" id/);
  });

  it("refuses empty instructions and says what to write", () => {
    for (const empty of ["", "  \n ", [], ["", "   "]]) {
      const define = defineLoosely({ id: "a", instructions: empty });
      expect(define).toThrow(TypeError);
      expect(define).toThrow('defineWebAgent("a"): instructions needs at least one non-empty line');
    }
  });

  it("refuses instructions that are not strings", () => {
    expect(defineLoosely({ id: "a" })).toThrow("instructions must be a string or an array of strings; instructions is undefined");
    expect(defineLoosely({ id: "a", instructions: ["ok", 4] })).toThrow(
      "instructions must be a string or an array of strings; instructions[1] is 4",
    );
  });

  it("refuses a maxSteps that is not a positive integer", () => {
    for (const maxSteps of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "3", null]) {
      const define = defineLoosely({ id: "a", instructions, maxSteps });
      expect(define).toThrow(TypeError);
      expect(define).toThrow('defineWebAgent("a"): maxSteps must be a positive integer');
    }
  });

  it("refuses tools that are neither a list nor a function", () => {
    for (const tools of ["add_to_cart", { add_to_cart: true }, null, 1]) {
      const define = defineLoosely({ id: "a", instructions, tools });
      expect(define).toThrow(TypeError);
      expect(define).toThrow("tools must be a list of tool ids and defineWebTool tools, or a function");
    }
  });

  it("refuses a tools entry that is neither an id nor a defineWebTool tool", () => {
    for (const entry of [3, "", null, { name: "add_to_cart", description: "Adds", execute: () => 1 }]) {
      const define = defineLoosely({ id: "a", instructions, tools: ["get_cart", entry] });
      expect(define).toThrow(TypeError);
      expect(define).toThrow(/tools\[1\] must be a tool id \(a non-empty string such as "add_to_cart"\) or a tool from defineWebTool/);
    }
  });

  it("refuses an agents entry that did not come from defineWebAgent", () => {
    const lookalike = { id: "orders", description: "d", instructions: ["i"], agents: [] };
    const define = defineLoosely({ id: "a", instructions, agents: [lookalike] });
    expect(define).toThrow(TypeError);
    expect(define).toThrow(
      'defineWebAgent("a"): agents[0] did not come from defineWebAgent (got an object); define each sub-agent with defineWebAgent',
    );
  });

  it("refuses agents that is not an array", () => {
    const sub = defineWebAgent({ id: "sub", instructions });
    expect(defineLoosely({ id: "a", instructions, agents: sub })).toThrow(
      'defineWebAgent("a"): agents must be an array of agents from defineWebAgent',
    );
  });

  it("refuses an id used twice in the tree, and names it", () => {
    const orders = defineWebAgent({ id: "orders", instructions });
    const otherOrders = defineWebAgent({ id: "orders", instructions: "Another." });
    const message = 'The agent id "orders" is used twice in the tree of agents and sub-agents; give each agent its own id.';
    // The parent's own id.
    expect(() => defineWebAgent({ id: "orders", instructions, agents: [orders] })).toThrow(message);
    // Two sub-agents.
    expect(() => defineWebAgent({ id: "top", instructions, agents: [orders, otherOrders] })).toThrow(message);
    // The same sub-agent listed twice.
    expect(() => defineWebAgent({ id: "top", instructions, agents: [orders, orders] })).toThrow(message);
    // Deep in the tree.
    const middle = defineWebAgent({ id: "middle", instructions, agents: [orders] });
    expect(() => defineWebAgent({ id: "top", instructions, agents: [middle, otherOrders] })).toThrow(TypeError);
    expect(() => defineWebAgent({ id: "top", instructions, agents: [middle, otherOrders] })).toThrow(message);
  });
});
