import { describe, expect, it } from "vitest";

describe("@webmcp-agents/chat/core", () => {
  it("imports on a server (no DOM) and exports the public API", async () => {
    expect(typeof document).toBe("undefined");
    const core = await import("./index.js");
    expect(Object.keys(core).sort()).toEqual([
      "WebAgentsError",
      "callModelContextTool",
      "defineWebTool",
      "isNativeModelContext",
      "onAgentEvent",
      "readPageTools",
      "registerWebTool",
    ]);
    const tool = core.defineWebTool({ name: "t", description: "d", execute: () => 1 });
    expect(tool.name).toBe("t");
    expect(await core.readPageTools()).toEqual([]);
    expect(await core.callModelContextTool({ name: "t", input: {} })).toMatchObject({ isError: true });
  });
});
