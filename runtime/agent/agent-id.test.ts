import { describe, expect, it } from "vitest";
import { AGENT_ID, DELEGATE_PREFIX, delegateToolName, isDelegateTool } from "./agent-id.js";

describe("AGENT_ID", () => {
  it("takes 1 to 64 of a-z A-Z 0-9 _ . -", () => {
    expect(AGENT_ID.test("shopper")).toBe(true);
    expect(AGENT_ID.test("Shop_1.v-2")).toBe(true);
    expect(AGENT_ID.test("a".repeat(64))).toBe(true);
  });

  it("refuses empty, too long and other characters", () => {
    expect(AGENT_ID.test("")).toBe(false);
    expect(AGENT_ID.test("a".repeat(65))).toBe(false);
    expect(AGENT_ID.test("two words")).toBe(false);
    expect(AGENT_ID.test("a/b")).toBe(false);
    expect(AGENT_ID.test("shopper\n")).toBe(false);
  });
});

describe("delegate tool names", () => {
  it("prefixes the id", () => {
    expect(DELEGATE_PREFIX).toBe("delegate_to_");
    expect(delegateToolName("orders")).toBe("delegate_to_orders");
  });

  it("recognises delegate_to_<id> names only", () => {
    expect(isDelegateTool("delegate_to_orders")).toBe(true);
    expect(isDelegateTool(delegateToolName("a.b-c_d"))).toBe(true);
    expect(isDelegateTool("delegate_to_")).toBe(false);
    expect(isDelegateTool("delegate_to_two words")).toBe(false);
    expect(isDelegateTool("list_orders")).toBe(false);
    expect(isDelegateTool("xdelegate_to_orders")).toBe(false);
  });
});
