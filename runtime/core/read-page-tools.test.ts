// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readPageTools } from "./read-page-tools.js";
import { installFakeNativeModelContext, installHappyDomWebMCP, resetWebMCP } from "./test-fixtures/happy-dom-webmcp.js";

beforeAll(installHappyDomWebMCP);
afterEach(() => {
  resetWebMCP();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const page = { origin: "http://localhost:3000", window: globalThis };

describe("readPageTools", () => {
  it("normalizes native entries in page order, parsing string schemas and filling missing ones", async () => {
    const { restore } = installFakeNativeModelContext([
      { name: "go_to", title: "Go", description: "Navigates.", inputSchema: { type: "object", properties: { to: { type: "string" } } }, ...page },
      { name: "get_cart", description: "Reads the cart.", inputSchema: '{"type":"object","properties":{}}', ...page },
      { name: "get_time", description: "Tells the time.", ...page },
    ]);
    try {
      expect(await readPageTools()).toEqual([
        { name: "go_to", title: "Go", description: "Navigates.", inputSchema: { type: "object", properties: { to: { type: "string" } } } },
        { name: "get_cart", description: "Reads the cart.", inputSchema: { type: "object", properties: {} } },
        { name: "get_time", description: "Tells the time.", inputSchema: { type: "object", properties: {} } },
      ]);
    } finally {
      restore();
    }
  });

  it("skips malformed entries and duplicates with one warning each, however often it is read", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { restore } = installFakeNativeModelContext([
      { name: "ok", description: "Fine." },
      { description: "No name." },
      "not an object",
      { name: "bad_schema", description: "d", inputSchema: "{not json" },
      { name: "array_schema", description: "d", inputSchema: [] },
      { name: "no_description" },
      { name: "ok", description: "Same name." },
    ]);
    try {
      expect((await readPageTools()).map((tool) => tool.name)).toEqual(["ok"]);
      await readPageTools();
      const messages = warn.mock.calls.map((call) => String(call[0]));
      expect(messages).toHaveLength(6);
      expect(messages.join("\n")).toMatch(/without a name \(keys: description\)/);
      expect(messages.join("\n")).toMatch(/"bad_schema": its inputSchema is not a JSON Schema object/);
      expect(messages.join("\n")).toMatch(/"array_schema"/);
      expect(messages.join("\n")).toMatch(/"no_description": its description is not a string/);
      expect(messages.join("\n")).toMatch(/a second page tool named "ok"/);
    } finally {
      restore();
    }
  });

  it("skips a page tool whose schema is not valid JSON Schema, the warning naming the keyword's path; the others stay", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { restore } = installFakeNativeModelContext([
      { name: "add_to_cart", description: "Adds.", inputSchema: { type: "object", properties: { qty: { type: "integr" } } }, ...page },
      { name: "find", description: "Finds.", inputSchema: { type: "object", required: "q" }, ...page },
      { name: "get_cart", description: "Reads the cart.", inputSchema: { type: "object", properties: {} }, ...page },
    ]);
    try {
      expect((await readPageTools()).map((tool) => tool.name)).toEqual(["get_cart"]);
      const messages = warn.mock.calls.map((call) => String(call[0]));
      expect(messages).toEqual([
        expect.stringMatching(/^\[web-agents\] Skipping the page tool "add_to_cart": inputSchema\.properties\.qty\.type must be one of/),
        expect.stringMatching(/^\[web-agents\] Skipping the page tool "find": inputSchema\.required must be a list of property names/),
      ]);
    } finally {
      restore();
    }
  });

  it("reads the polyfill's tools", async () => {
    const { getModelContext } = await import("./model-context.js");
    const controller = new AbortController();
    await getModelContext().registerTool(
      { name: "search", description: "Finds.", inputSchema: { type: "object", properties: { q: { type: "string" } } }, execute: () => 1 },
      { signal: controller.signal },
    );
    expect(await readPageTools()).toEqual([
      { name: "search", description: "Finds.", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
    ]);
    controller.abort();
  });

  it("resolves [] where there is no WebMCP", async () => {
    vi.stubGlobal("document", undefined);
    expect(await readPageTools()).toEqual([]);
  });
});
