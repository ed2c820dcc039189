// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { callModelContextTool } from "./call-model-context-tool.js";
import { defineWebTool, type WebTool } from "./define-web-tool.js";
import { getModelContext } from "./model-context.js";
import { readPageTools } from "./read-page-tools.js";
import { registerWebTool } from "./register-web-tool.js";
import { installHappyDomWebMCP, personClick, resetWebMCP } from "./test-fixtures/happy-dom-webmcp.js";
import { readToolErrorCode } from "./tool-error-output.js";
import { WebAgentsError } from "./web-agents-error.js";

const controllers: AbortController[] = [];
function signal(): AbortSignal {
  const controller = new AbortController();
  controllers.push(controller);
  return controller.signal;
}

const getCart = defineWebTool({
  name: "get_cart",
  title: "Cart",
  description: "Reads the cart.",
  annotations: { readOnlyHint: true },
  execute: () => ({ items: [] }),
});

beforeAll(installHappyDomWebMCP);
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
  resetWebMCP();
  vi.unstubAllGlobals();
});

/** Calls a tool the way another WebMCP agent would: through executeTool. */
async function callThroughWebMCP(name: string, input: unknown): Promise<unknown> {
  const context = getModelContext();
  const entry = (await context.getTools()).find((tool) => (tool as { name: string }).name === name);
  return JSON.parse((await context.executeTool(entry as object, JSON.stringify(input))) as string);
}

describe("registerWebTool", () => {
  it("hands WebMCP the outputSchema, and an MCP-style destructiveHint as WebMCP's consequentialHint too, unless the tool says otherwise", async () => {
    const context = getModelContext();
    const registered: Record<string, unknown>[] = [];
    const register = context.registerTool.bind(context);
    vi.spyOn(context, "registerTool").mockImplementation((tool, options) => {
      registered.push(tool as unknown as Record<string, unknown>);
      return register(tool, options);
    });
    const outputSchema = { type: "object", properties: { id: { type: "string" } } };
    await registerWebTool(defineWebTool({ name: "place_order", description: "Orders.", outputSchema, annotations: { destructiveHint: true }, execute: () => "ok" }), { signal: signal() });
    await registerWebTool(defineWebTool({ name: "undo", description: "Undoes.", annotations: { destructiveHint: true, consequentialHint: false }, execute: () => "ok" }), { signal: signal() });
    expect(registered.map(({ name, outputSchema, annotations }) => ({ name, outputSchema, annotations }))).toEqual([
      { name: "place_order", outputSchema, annotations: { destructiveHint: true, consequentialHint: true } },
      { name: "undo", outputSchema: undefined, annotations: { destructiveHint: true, consequentialHint: false } },
    ]);
    expect((await readPageTools()).find((tool) => tool.name === "place_order")?.outputSchema).toEqual(outputSchema);
  });

  it("registers the tool on document.modelContext with its schema, title and annotations", async () => {
    await registerWebTool(getCart, { signal: signal() });
    expect(await readPageTools()).toEqual([
      { name: "get_cart", title: "Cart", description: "Reads the cart.", inputSchema: { type: "object", properties: {} } },
    ]);
    const [entry] = await getModelContext().getTools();
    expect(entry).toMatchObject({ title: "Cart", annotations: { readOnlyHint: true } });
  });

  it("unregisters when the signal aborts", async () => {
    const controller = new AbortController();
    await registerWebTool(getCart, { signal: controller.signal });
    controller.abort();
    expect(await readPageTools()).toEqual([]);
    expect(readToolErrorCode(await callModelContextTool({ name: "get_cart", input: {} }))).toBe("unknown_tool");
    // The name is free again.
    await registerWebTool(getCart, { signal: signal() });
    expect((await readPageTools()).map((tool) => tool.name)).toEqual(["get_cart"]);
  });

  it("does nothing for an already aborted signal", async () => {
    await registerWebTool(getCart, { signal: AbortSignal.abort() });
    expect(await readPageTools()).toEqual([]);
  });

  it("rejects a second tool of the same name with duplicate_tool", async () => {
    await registerWebTool(getCart, { signal: signal() });
    const again = defineWebTool({ name: "get_cart", description: "Another.", execute: () => "x" });
    const error = await registerWebTool(again, { signal: signal() }).catch((reason: unknown) => reason);
    expect(WebAgentsError.isInstance(error) && error.code).toBe("duplicate_tool");
    expect((error as Error).message).toMatch(/A tool named "get_cart" is already registered on this page/);
    // The first one still answers.
    expect(await callModelContextTool({ name: "get_cart", input: {} })).toMatchObject({ structuredContent: { items: [] } });
  });

  it("turns the browser's InvalidStateError for a foreign duplicate into duplicate_tool", async () => {
    await getModelContext().registerTool({ name: "get_cart", description: "Theirs.", execute: () => 1 }, { signal: signal() });
    const error = await registerWebTool(getCart, { signal: signal() }).catch((reason: unknown) => reason);
    expect(WebAgentsError.isInstance(error) && error.code).toBe("duplicate_tool");
    expect((error as Error).message).toContain("the browser said: Tool already registered: get_cart");
  });

  it("rejects what did not come from defineWebTool, and outside a browser", async () => {
    const fake = { name: "x", description: "d", execute: () => 1 } as unknown as WebTool;
    await expect(registerWebTool(fake)).rejects.toThrow(/pass a tool from defineWebTool/);
    vi.stubGlobal("document", undefined);
    await expect(registerWebTool(getCart)).rejects.toMatchObject({ code: "no_document" });
  });

  it("validates and runs the tool for another WebMCP agent, returning an MCP result", async () => {
    const add = defineWebTool({
      name: "add",
      description: "Adds.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    await registerWebTool(add, { signal: signal() });
    expect(await callThroughWebMCP("add", { a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: "3" }] });
    const invalid = (await callThroughWebMCP("add", { a: "1" })) as { isError: boolean; content: { text: string }[] };
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toMatch(/^Error \[invalid_input\]/);
  });

  it("gives another agent's call a signal that never aborts and a working waitForClick", async () => {
    document.body.innerHTML = `<button id="ok">OK</button>`;
    let toolSignal: AbortSignal | undefined;
    const gate = defineWebTool({
      name: "gate",
      description: "Waits for OK.",
      execute: async (_, context) => {
        toolSignal = context.signal;
        await context.waitForClick("#ok", "Click OK.");
        return "confirmed";
      },
    });
    await registerWebTool(gate, { signal: signal() });
    const call = callThroughWebMCP("gate", {});
    await vi.waitFor(() => expect(toolSignal).toBeDefined());
    personClick(document.querySelector("#ok")!);
    expect(await call).toEqual({ content: [{ type: "text", text: "confirmed" }] });
    expect(toolSignal?.aborted).toBe(false);
  });
});
