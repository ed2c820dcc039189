import { describe, expect, it } from "vitest";

describe("@webmcp-agents/chat/core", () => {
  it("imports on a server (no DOM) and exports the public API", async () => {
    expect(typeof document).toBe("undefined");
    const core = await import("./index.js");
    expect(Object.keys(core).sort()).toEqual([
      "AFTER_CALL_SETTLE",
      "TOOLS_SETTLE",
      "UNTRUSTED_CONTENT_META",
      "WebAgentsError",
      "callModelContextTool",
      "defineWebTool",
      "emitAgentEvent",
      "getModelContext",
      "isNativeModelContext",
      "isWebTool",
      "onAgentEvent",
      "pointAt",
      "readPageTools",
      "readToolErrorCode",
      "registerWebTool",
      "toolErrorOutput",
      "untrustedContentSource",
      "waitForToolsToSettle",
      "watchPageTools",
    ]);
    const tool = core.defineWebTool({ name: "t", description: "d", execute: () => 1 });
    expect(core.isWebTool(tool)).toBe(true);
    expect(await core.readPageTools()).toEqual([]);
    expect(await core.callModelContextTool({ name: "t", input: {} })).toMatchObject({ isError: true });
  });
});
