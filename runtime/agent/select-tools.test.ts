import { describe, expect, it } from "vitest";
import type { ToolDescriptor } from "../session/tool-descriptor.js";
import { defineWebAgent } from "./define-web-agent.js";
import { delegateTool } from "./delegate-tool.js";
import { selectTools } from "./select-tools.js";
import type { ToolFilter } from "./web-agent.js";

const instructions = "Help.";

function tool(name: string): ToolDescriptor {
  return { name, description: `Does ${name}.`, inputSchema: { type: "object" } };
}

const page = [tool("get_cart"), tool("go_to"), tool("add_to_cart"), tool("delegate_to_orders"), tool("delegate_to_")];
const names = (tools: ToolDescriptor[]) => tools.map((each) => each.name);

describe("selectTools", () => {
  it("with no agent, gives the page's tools as they are, in a new array (the defineWebAgent page)", () => {
    const selected = selectTools(undefined, page);
    expect(selected).toEqual(page);
    expect(selected).not.toBe(page);
  });

  it("drops incoming delegate_to_* tools and keeps every other page tool by default", () => {
    expect(names(selectTools(defineWebAgent({ id: "a", instructions }), page))).toEqual([
      "get_cart",
      "go_to",
      "add_to_cart",
    ]);
  });

  it("keeps page order for a list and ignores unknown ids", () => {
    const agent = defineWebAgent({ id: "a", instructions, tools: ["add_to_cart", "missing", "get_cart", "delegate_to_orders"] });
    expect(names(selectTools(agent, page))).toEqual(["get_cart", "add_to_cart"]);
  });

  it("calls a filter with a copy of the page tools, delegates already dropped", () => {
    let seen: ToolDescriptor[] = [];
    const filter: ToolFilter = (tools) => {
      seen = tools;
      tools.reverse();
      return tools.filter((each) => each.name !== "go_to");
    };
    const agent = defineWebAgent({ id: "a", instructions, tools: filter });
    expect(names(selectTools(agent, page))).toEqual(["add_to_cart", "get_cart"]);
    expect(names(seen)).toEqual(["add_to_cart", "go_to", "get_cart"]);
    expect(names(page)[0]).toBe("get_cart");
  });

  it("refuses a filter result that is not an array of descriptors, naming the agent", () => {
    const notArray = defineWebAgent({ id: "bad", instructions, tools: (() => "get_cart") as unknown as ToolFilter });
    expect(() => selectTools(notArray, page)).toThrow(TypeError);
    expect(() => selectTools(notArray, page)).toThrow(
      'The tools function of agent "bad" must return an array of tool descriptors; it returned "get_cart".',
    );
    const onlyNames = defineWebAgent({ id: "bad", instructions, tools: (() => ["get_cart"]) as unknown as ToolFilter });
    expect(() => selectTools(onlyNames, page)).toThrow(TypeError);
    expect(() => selectTools(onlyNames, page)).toThrow('The tools function of agent "bad" returned "get_cart" at [0]');
  });

  it("appends one delegate per sub-agent, and a delegate wins a name clash", () => {
    const orders = defineWebAgent({ id: "orders", instructions });
    const billing = defineWebAgent({ id: "billing", instructions });
    const agent = defineWebAgent({ id: "a", instructions, agents: [orders, billing] });
    const clashing = [tool("get_cart"), tool("delegate_to_orders")];
    const selected = selectTools(agent, clashing);
    expect(names(selected)).toEqual(["get_cart", "delegate_to_orders", "delegate_to_billing"]);
    expect(selected[1]).toEqual(delegateTool(orders));
  });

  it("drops a filter's delegate-named tools too: only sub-agents make delegates", () => {
    const agent = defineWebAgent({ id: "a", instructions, tools: () => [tool("delegate_to_x"), tool("go_to")] });
    expect(names(selectTools(agent, page))).toEqual(["go_to"]);
  });
});
