import { describe, expect, it } from "vitest";
import { defineWebAgent } from "../../agent/define-web-agent.js";
import { defineWebTool } from "../../core/define-web-tool.js";
import { defineAgentScenario } from "./define-agent-scenario.js";
import type { AgentScenarioConfig } from "./agent-scenario.js";

const base: AgentScenarioConfig = { id: "buy", messages: "Buy socks" };
const define = (extra: Record<string, unknown>) => () => defineAgentScenario({ ...base, ...extra } as AgentScenarioConfig);

describe("defineAgentScenario", () => {
  it("fills the defaults and freezes the scenario", () => {
    const scenario = defineAgentScenario(base);
    expect(scenario).toEqual({ id: "buy", title: "buy", messages: ["Buy socks"], agent: undefined, tools: undefined, calls: [], forbidden: [], answer: undefined, confirm: "allow", runs: 1, generation: undefined });
    expect(Object.isFrozen(scenario)).toBe(true);
    expect(Object.isFrozen(scenario.calls)).toBe(true);
  });

  it("keeps every field given, forbidden names as calls", () => {
    const agent = defineWebAgent({ id: "shopper", instructions: "Shop." });
    const tool = defineWebTool({ name: "add_to_cart", description: "Adds.", execute: () => "ok" });
    const predicate = (input: unknown) => input !== null;
    const scenario = defineAgentScenario({
      ...base,
      title: "Buys",
      messages: ["Hi", "Buy socks"],
      agent,
      tools: [tool],
      calls: [{ tool: "go_to", input: { page: "cart" } }, { tool: "add_to_cart", input: predicate }],
      forbidden: ["place_order", { tool: "go_to", input: { page: "orders" } }],
      answer: /added/i,
      confirm: { place_order: "decline" },
      runs: 3,
      generation: { temperature: 0.7, maxNewTokens: 64, enableThinking: false },
    });
    expect(scenario.messages).toEqual(["Hi", "Buy socks"]);
    expect(scenario.forbidden).toEqual([{ tool: "place_order" }, { tool: "go_to", input: { page: "orders" } }]);
    expect(scenario.calls[1]!.input).toBe(predicate);
    expect(scenario.tools).toEqual([tool]);
    expect(scenario.runs).toBe(3);
    expect(scenario.generation).toEqual({ temperature: 0.7, maxNewTokens: 64, enableThinking: false });
  });

  it.each([
    ["a config that is not an object", () => defineAgentScenario(undefined as never), /pass a config object/],
    ["an unknown option", define({ expect: [] }), /unknown option "expect"/],
    ["a bad id", define({ id: "buy socks" }), /id must be 1 to 64/],
    ["no message", define({ messages: [] }), /messages must be the person's message/],
    ["an empty message", define({ messages: ["  "] }), /messages must be/],
    ["an agent not from defineWebAgent", define({ agent: { id: "shopper" } }), /agent must come from defineWebAgent/],
    ["a tool not from defineWebTool", define({ tools: [{ name: "go_to" }] }), /tools\[0\] must come from defineWebTool/],
    ["tools that are neither a list nor a function", define({ tools: "go_to" }), /tools must be a list/],
    ["a call without a tool name", define({ calls: [{ input: {} }] }), /calls\[0\] must be \{ tool/],
    ["a call with an unknown key", define({ calls: [{ tool: "go_to", args: {} }] }), /unknown key "args"/],
    ["an input match that is an array", define({ calls: [{ tool: "go_to", input: ["cart"] }] }), /input must be an object/],
    ["a forbidden entry that is a number", define({ forbidden: [3] }), /forbidden\[0\] must be/],
    ["an answer that is a number", define({ answer: 3 }), /answer must be a RegExp/],
    ["a confirm answer other than allow / decline", define({ confirm: "yes" }), /confirm must be "allow", "decline"/],
    ["a per-tool confirm answer other than allow / decline", define({ confirm: { place_order: true } }), /confirm.place_order must be "allow" or "decline"/],
    ["runs that is not a positive integer", define({ runs: 1.5 }), /runs must be a positive integer/],
    ["runs of 0", define({ runs: 0 }), /runs must be a positive integer/],
    ["an unknown generation setting", define({ generation: { topK: 3 } }), /unknown generation setting "topK"/],
    ["a negative temperature", define({ generation: { temperature: -1 } }), /temperature must be a number of 0 or more/],
    ["maxNewTokens that is not a positive integer", define({ generation: { maxNewTokens: 0 } }), /maxNewTokens must be a positive integer/],
    ["enableThinking that is not a boolean", define({ generation: { enableThinking: "no" } }), /enableThinking must be true or false/],
  ])("throws a TypeError that names the fix for %s", (_name, run, message) => {
    expect(run).toThrow(TypeError);
    expect(run).toThrow(message);
  });
});
