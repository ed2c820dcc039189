import { describe, expect, it } from "vitest";
import { toToolOutput } from "./to-tool-output.js";
import { readToolErrorCode, toolErrorOutput } from "./tool-error-output.js";

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

describe("toToolOutput", () => {
  it("keeps an MCP result, isError and structuredContent included", () => {
    const result = { content: [{ type: "text", text: "no" }], isError: true, structuredContent: { a: 1 }, extra: 1 };
    expect(toToolOutput(result)).toEqual({ content: result.content, isError: true, structuredContent: { a: 1 } });
    expect(toToolOutput({ content: [] })).toEqual({ content: [] });
  });

  it("says Done. for nothing", () => {
    expect(toToolOutput(undefined)).toEqual(text("Done."));
    expect(toToolOutput("")).toEqual(text("Done."));
  });

  it("keeps plain strings as text, numbers and booleans included", () => {
    expect(toToolOutput("Added.")).toEqual(text("Added."));
    expect(toToolOutput("42")).toEqual(text("42"));
    expect(toToolOutput("{not json")).toEqual(text("{not json"));
  });

  it("parses JSON strings, as executeTool returns them", () => {
    expect(toToolOutput('{"content":[{"type":"text","text":"hi"}],"isError":false}')).toEqual({
      content: [{ type: "text", text: "hi" }],
      isError: false,
    });
    expect(toToolOutput('"Added."')).toEqual(text("Added."));
    expect(toToolOutput('{"total":3}')).toEqual({ ...text('{"total":3}'), structuredContent: { total: 3 } });
    expect(toToolOutput("[1,2]")).toEqual(text("[1,2]"));
  });

  it("writes other values as JSON, with structuredContent for plain objects", () => {
    expect(toToolOutput({ total: 3 })).toEqual({ ...text('{"total":3}'), structuredContent: { total: 3 } });
    expect(toToolOutput([1])).toEqual(text("[1]"));
    expect(toToolOutput(null)).toEqual(text("null"));
    expect(toToolOutput(7)).toEqual(text("7"));
    expect(toToolOutput(new Date(0))).toEqual(text('"1970-01-01T00:00:00.000Z"'));
  });

  it("survives values JSON cannot write", () => {
    expect(toToolOutput(10n)).toEqual(text("10"));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toToolOutput(cyclic).content).toEqual([{ type: "text", text: "[object Object]" }]);
  });
});

describe("toolErrorOutput and readToolErrorCode", () => {
  it("round-trips the code", () => {
    const output = toolErrorOutput("unknown_tool", "No tool named x.");
    expect(output).toEqual({ isError: true, content: [{ type: "text", text: "Error [unknown_tool]: No tool named x." }] });
    expect(readToolErrorCode(output)).toBe("unknown_tool");
    expect(readToolErrorCode("Error [cancelled]: Stopped.")).toBe("cancelled");
  });

  it("finds no code in a success or an uncoded error", () => {
    expect(readToolErrorCode({ content: [{ type: "text", text: "Error [x]: looks like one" }] })).toBeUndefined();
    expect(readToolErrorCode({ isError: true, content: [{ type: "text", text: "Out of stock." }] })).toBeUndefined();
    expect(readToolErrorCode({ isError: true, content: [] })).toBeUndefined();
    expect(readToolErrorCode("plain")).toBeUndefined();
  });
});
