// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readToolHints } from "../session/tool-policy.js";
import { getModelContext, isNativeModelContext } from "./model-context.js";
import { readPageTools } from "./read-page-tools.js";
import { installHappyDomWebMCP, resetWebMCP } from "./test-fixtures/happy-dom-webmcp.js";

beforeAll(installHappyDomWebMCP);
afterEach(resetWebMCP);

const outputSchema = { type: "object", properties: { id: { type: "string" } } };

describe("consequentialHint and outputSchema on a page with the polyfill (@mcp-b/webmcp-polyfill 5.1 drops both)", () => {
  it("a tool another script registers keeps its consequentialHint for the tool policy, and its outputSchema for the model", async () => {
    const context = getModelContext();
    expect(isNativeModelContext(context)).toBe(false);
    const registration = new AbortController();
    await context.registerTool(
      { name: "send_gift", description: "Sends a gift card.", outputSchema, annotations: { consequentialHint: true, untrustedContentHint: false }, execute: () => "sent" },
      { signal: registration.signal },
    );
    // What the polyfill itself reports (its issue 341): readOnlyHint and untrustedContentHint only.
    expect(((await context.getTools())[0] as { annotations: object }).annotations).toMatchObject({ readOnlyHint: false, untrustedContentHint: false });
    expect(await readToolHints("send_gift")).toEqual({ readOnlyHint: false, untrustedContentHint: false, consequentialHint: true });
    expect((await readPageTools())[0]).toMatchObject({ name: "send_gift", outputSchema });
    // The polyfill still runs the entry it is handed back.
    expect(await context.executeTool((await context.getTools())[0] as object, "{}")).toBe("sent");

    // Unregistered, then registered again without the hint: nothing stale comes back.
    registration.abort();
    await context.registerTool({ name: "send_gift", description: "Sends a gift card.", execute: () => "sent" });
    expect(await readToolHints("send_gift")).toEqual({});
  });

  it("a refused registration (a duplicate name) leaves the first tool's annotations as they were", async () => {
    const context = getModelContext();
    await context.registerTool({ name: "delete_account", description: "Deletes it.", annotations: { consequentialHint: true }, execute: () => "gone" });
    await expect(context.registerTool({ name: "delete_account", description: "Again.", annotations: { consequentialHint: false }, execute: () => "" })).rejects.toThrow();
    expect((await readToolHints("delete_account")).consequentialHint).toBe(true);
  });
});
