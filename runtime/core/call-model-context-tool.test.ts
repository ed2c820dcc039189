// @vitest-environment happy-dom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { onAgentEvent, type AgentEvent } from "./agent-events.js";
import { callModelContextTool } from "./call-model-context-tool.js";
import { defineWebTool, type WebToolConfig, type WebToolContext } from "./define-web-tool.js";
import { getModelContext } from "./model-context.js";
import { registerWebTool } from "./register-web-tool.js";
import {
  installFakeNativeModelContext,
  installHappyDomWebMCP,
  personClick,
  resetWebMCP,
} from "./test-fixtures/happy-dom-webmcp.js";
import { readToolErrorCode } from "./tool-error-output.js";
import type { ToolOutput } from "./tool-output.js";

const registrations: AbortController[] = [];
let events: AgentEvent[];
let stopEvents: () => void;

beforeAll(installHappyDomWebMCP);
beforeEach(() => {
  events = [];
  stopEvents = onAgentEvent((event) => events.push(event));
});
afterEach(() => {
  stopEvents();
  for (const controller of registrations.splice(0)) controller.abort();
  resetWebMCP();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function own<Input>(config: Omit<WebToolConfig<Input>, "description"> & { description?: string }) {
  const controller = new AbortController();
  registrations.push(controller);
  await registerWebTool(defineWebTool({ description: "A test tool.", ...config } as WebToolConfig<Input>), {
    signal: controller.signal,
  });
}

async function foreign(name: string, execute: (input: unknown) => unknown, inputSchema?: object) {
  const controller = new AbortController();
  registrations.push(controller);
  await getModelContext().registerTool({ name, description: "Foreign.", inputSchema, execute }, { signal: controller.signal });
}

const text = (output: ToolOutput) => (output.content[0] as { text: string }).text;

describe("callModelContextTool with a tool this window registered", () => {
  it("runs it directly with the validated input and a live context", async () => {
    let seen: { input: unknown; context: WebToolContext } | undefined;
    await own({
      name: "add_to_cart",
      inputSchema: z.object({ id: z.string(), quantity: z.number().default(1) }),
      execute: (input, context) => {
        seen = { input, context };
        return { added: input.id };
      },
    });
    const output = await callModelContextTool({ id: "call-1", name: "add_to_cart", input: { id: "p1" } });
    expect(output).toEqual({ content: [{ type: "text", text: '{"added":"p1"}' }], structuredContent: { added: "p1" } });
    expect(seen?.input).toEqual({ id: "p1", quantity: 1 });
    expect(seen?.context.signal.aborted).toBe(false);
    expect(seen?.context.callId).toBe("call-1");
    expect(events).toEqual([
      { type: "start", tool: "add_to_cart", callId: "call-1" },
      { type: "end", tool: "add_to_cart", isError: false, callId: "call-1" },
    ]);
  });

  it("says Done. for a tool that returns nothing, and keeps an MCP error result", async () => {
    await own({ name: "noop", execute: () => undefined });
    await own({ name: "refuse", execute: () => ({ content: [{ type: "text", text: "No stock." }], isError: true }) });
    expect(await callModelContextTool({ name: "noop", input: {} })).toEqual({ content: [{ type: "text", text: "Done." }] });
    expect(await callModelContextTool({ name: "refuse", input: {} })).toEqual({
      content: [{ type: "text", text: "No stock." }],
      isError: true,
    });
    expect(events.at(-1)).toEqual({ type: "end", tool: "refuse", isError: true });
  });

  it("returns invalid_input from the Standard Schema without running the tool", async () => {
    const execute = vi.fn();
    await own({ name: "add_to_cart", inputSchema: z.object({ id: z.string() }), execute });
    const output = await callModelContextTool({ name: "add_to_cart", input: { id: 5 } });
    expect(readToolErrorCode(output)).toBe("invalid_input");
    expect(text(output)).toMatch(/^Error \[invalid_input\]: The input for add_to_cart does not match its schema:\n- id: /);
    expect(execute).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });

  it("returns invalid_input from the JSON Schema when there is no Standard Schema", async () => {
    await own({ name: "t", inputSchema: { type: "object", required: ["q"] }, execute: () => "ok" });
    expect(readToolErrorCode(await callModelContextTool({ name: "t", input: {} }))).toBe("invalid_input");
    expect(readToolErrorCode(await callModelContextTool({ name: "t", input: "q" }))).toBe("invalid_input");
  });

  it.each<[string, () => unknown, string]>([
    ["throws an Error", () => {
      throw new Error("Out of stock.");
    }, "Error [tool_failed]: t failed: Out of stock."],
    ["throws a TypeError", () => {
      throw new TypeError("x is undefined");
    }, "Error [tool_failed]: t failed: TypeError: x is undefined"],
    ["throws a string", () => {
      throw "nope";
    }, "Error [tool_failed]: t failed: nope"],
    ["throws an object", () => {
      throw { reason: 42 };
    }, 'Error [tool_failed]: t failed: {"reason":42}'],
    ["returns a rejected promise", () => Promise.reject(new Error("Server said 500.")), "Error [tool_failed]: t failed: Server said 500."],
    ["throws an AbortError", () => {
      throw new DOMException("Gave up.", "AbortError");
    }, "Error [cancelled]: t was cancelled: AbortError: Gave up."],
  ])("turns a tool that %s into an error result", async (_, execute, expected) => {
    await own({ name: "t", execute });
    const output = await callModelContextTool({ name: "t", input: {} });
    expect(output).toEqual({ isError: true, content: [{ type: "text", text: expected }] });
    expect(events.map((event) => event.type)).toEqual(["start", "end"]);
    expect(events[1]).toEqual({ type: "end", tool: "t", isError: true });
  });

  it("times out a tool that never resolves, and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    await own({ name: "hang", execute: (_, context) => {
      signal = context.signal;
      return new Promise(() => {});
    } });
    vi.useFakeTimers();
    const call = callModelContextTool({ name: "hang", input: {} });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const output = await call;
    expect(readToolErrorCode(output)).toBe("timeout");
    expect(text(output)).toContain("did not finish within 30 s");
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as DOMException).name).toBe("TimeoutError");
    expect(events.at(-1)).toEqual({ type: "end", tool: "hang", isError: true });
  });

  it("takes a custom timeout, and the default for a bad one", async () => {
    await own({ name: "hang", execute: () => new Promise(() => {}) });
    vi.useFakeTimers();
    const short = callModelContextTool({ name: "hang", input: {} }, { timeout: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(text(await short)).toContain("within 0.5 s");
    const bad = callModelContextTool({ name: "hang", input: {} }, { timeout: -1 });
    let done = false;
    void bad.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(readToolErrorCode(await bad)).toBe("timeout");
  });

  it("does not count time parked on waitForClick toward the timeout", async () => {
    document.body.innerHTML = `<button id="confirm">Place order</button>`;
    await own({
      name: "place_order",
      execute: async (_, context) => {
        await context.waitForClick("#confirm", "Click Place order.");
        return new Promise(() => {});
      },
    });
    vi.useFakeTimers();
    const call = callModelContextTool({ name: "place_order", input: {} }, { timeout: 1_000 });
    let done = false;
    void call.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toBe(false);
    expect(events.map((event) => event.type)).toEqual(["start", "park"]);
    personClick(document.querySelector("#confirm")!);
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    expect(events.map((event) => event.type)).toEqual(["start", "park", "resume"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(readToolErrorCode(await call)).toBe("timeout");
  });

  it("names the call on every event, so two concurrent calls of one tool stay apart", async () => {
    document.body.innerHTML = `<button id="a">A</button><button id="b">B</button>`;
    await own({
      name: "confirm",
      inputSchema: z.object({ button: z.string() }),
      execute: async ({ button }, context) => {
        context.pointAt(`#${button}`);
        await context.waitForClick(`#${button}`, `Click ${button}.`);
        return button;
      },
    });
    const first = callModelContextTool({ id: "c1", name: "confirm", input: { button: "a" } });
    const second = callModelContextTool({ id: "c2", name: "confirm", input: { button: "b" } });
    await vi.waitFor(() => expect(events.filter((event) => event.type === "park")).toHaveLength(2));
    personClick(document.querySelector("#b")!);
    expect(text(await second)).toBe("b");
    personClick(document.querySelector("#a")!);
    expect(text(await first)).toBe("a");
    const byCall = (callId: string) => events.filter((event) => event.callId === callId).map((event) => event.type);
    expect(byCall("c1")).toEqual(["start", "act", "park", "resume", "end"]);
    expect(byCall("c2")).toEqual(["start", "act", "park", "resume", "end"]);
    expect(events.every((event) => event.callId !== undefined)).toBe(true);
  });

  it("pauses only the parked call's timeout, not another call's of the same tool", async () => {
    document.body.innerHTML = `<button id="confirm">OK</button>`;
    await own({
      name: "gate",
      inputSchema: z.object({ park: z.boolean() }),
      execute: async ({ park }, context) => {
        if (park) await context.waitForClick("#confirm", "Click OK.");
        return new Promise(() => {});
      },
    });
    vi.useFakeTimers();
    const parked = callModelContextTool({ id: "p", name: "gate", input: { park: true } }, { timeout: 1_000 });
    const running = callModelContextTool({ id: "r", name: "gate", input: { park: false } }, { timeout: 1_000 });
    let parkedDone = false;
    void parked.then(() => (parkedDone = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(readToolErrorCode(await running)).toBe("timeout");
    expect(parkedDone).toBe(false);
  });

  it("returns cancelled without running when the signal aborted before the call", async () => {
    const execute = vi.fn();
    await own({ name: "t", execute });
    const output = await callModelContextTool({ name: "t", input: {} }, { signal: AbortSignal.abort() });
    expect(text(output)).toBe("Error [cancelled]: The call to t was stopped before it ran.");
    expect(execute).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });

  it("returns cancelled at once when the signal aborts during the call, and aborts the tool's signal", async () => {
    let toolSignal: AbortSignal | undefined;
    await own({ name: "slow", execute: (_, context) => {
      toolSignal = context.signal;
      return new Promise(() => {});
    } });
    const controller = new AbortController();
    const call = callModelContextTool({ name: "slow", input: {} }, { signal: controller.signal });
    // During the call: once the tool runs (its input is checked first).
    await vi.waitFor(() => expect(toolSignal).toBeDefined());
    controller.abort(new Error("Stop pressed."));
    const output = await call;
    expect(readToolErrorCode(output)).toBe("cancelled");
    expect(toolSignal?.aborted).toBe(true);
    expect(toolSignal?.reason).toEqual(new Error("Stop pressed."));
    expect(events.at(-1)).toEqual({ type: "end", tool: "slow", isError: true });
  });

  it("cancels a call parked on waitForClick", async () => {
    document.body.innerHTML = `<button id="confirm">OK</button>`;
    await own({ name: "gate", execute: (_, context) => context.waitForClick("#confirm", "Click OK.") });
    const controller = new AbortController();
    const call = callModelContextTool({ name: "gate", input: {} }, { signal: controller.signal });
    await vi.waitFor(() => expect(events.map((event) => event.type)).toContain("park"));
    controller.abort();
    expect(readToolErrorCode(await call)).toBe("cancelled");
  });

  it("reports a waitForClick target that is missing as tool_failed", async () => {
    await own({ name: "gate", execute: (_, context) => context.waitForClick("#nowhere", "Click it.") });
    const output = await callModelContextTool({ name: "gate", input: {} });
    expect(text(output)).toMatch(/^Error \[tool_failed\]: gate failed: WebAgentsError: gate: no element matches "#nowhere"/);
  });
});

describe("callModelContextTool with other tools on the page", () => {
  it("returns unknown_tool listing the tools there are", async () => {
    await own({ name: "get_cart", execute: () => "[]" });
    await foreign("go_to", () => "ok");
    const output = await callModelContextTool({ name: "checkout", input: {} });
    expect(text(output)).toBe(
      'Error [unknown_tool]: No tool named "checkout" is on this page now; the page may have changed. ' +
        "Tools on this page now: get_cart, go_to. Call one of those instead.",
    );
    expect(events).toEqual([]);
  });

  it("says so when the page has no tools", async () => {
    const output = await callModelContextTool({ name: "x", input: {} });
    expect(text(output)).toContain("This page has no tools right now.");
  });

  it("runs a foreign tool through the polyfill's executeTool and normalizes its result", async () => {
    const execute = vi.fn((input: unknown) => ({ got: input }));
    await foreign("search", execute, { type: "object", properties: { q: { type: "string" } } });
    await foreign("noop", () => undefined);
    const output = await callModelContextTool({ id: "c", name: "search", input: { q: "tea" } });
    expect(execute).toHaveBeenCalledWith({ q: "tea" });
    expect(output).toEqual({ content: [{ type: "text", text: '{"got":{"q":"tea"}}' }], structuredContent: { got: { q: "tea" } } });
    expect(await callModelContextTool({ name: "noop", input: undefined })).toEqual({ content: [{ type: "text", text: "Done." }] });
    expect(events.slice(0, 2)).toEqual([
      { type: "start", tool: "search", callId: "c" },
      { type: "end", tool: "search", isError: false, callId: "c" },
    ]);
  });

  it("validates a foreign tool's input against its JSON Schema", async () => {
    const execute = vi.fn();
    await foreign("search", execute, { type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    const output = await callModelContextTool({ name: "search", input: { q: 1 } });
    expect(text(output)).toContain("- q: Instance type \"number\" is invalid.");
    expect(execute).not.toHaveBeenCalled();
  });

  it("reports a foreign tool that throws as tool_failed", async () => {
    await foreign("boom", () => {
      throw new Error("kaput");
    });
    const output = await callModelContextTool({ name: "boom", input: {} });
    expect(readToolErrorCode(output)).toBe("tool_failed");
    expect(text(output)).toContain("kaput");
  });

  it("cancels and times out a foreign tool", async () => {
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    await foreign("hang", () => {
      running();
      return new Promise(() => {});
    });
    const controller = new AbortController();
    const cancelled = callModelContextTool({ name: "hang", input: {} }, { signal: controller.signal });
    // Abort once the tool is running, not before it starts.
    await started;
    controller.abort();
    expect(readToolErrorCode(await cancelled)).toBe("cancelled");
    vi.useFakeTimers();
    const timedOut = callModelContextTool({ name: "hang", input: {} }, { timeout: 100 });
    await vi.advanceTimersByTimeAsync(100);
    expect(readToolErrorCode(await timedOut)).toBe("timeout");
  });

  it("passes native executeTool an input object and parses its JSON string", async () => {
    const entry = { name: "search", description: "d", inputSchema: { type: "object" }, origin: location.origin, window };
    const executeTool = vi.fn(async () => JSON.stringify({ hits: 2 }));
    const { restore } = installFakeNativeModelContext([entry], executeTool);
    try {
      const output = await callModelContextTool({ name: "search", input: { q: "tea" } });
      expect(executeTool).toHaveBeenCalledWith(entry, { q: "tea" }, { signal: expect.any(AbortSignal) });
      expect(output).toEqual({ content: [{ type: "text", text: '{"hits":2}' }], structuredContent: { hits: 2 } });
    } finally {
      restore();
    }
  });

  it("reports native's unhelpful failure as tool_failed", async () => {
    const entry = { name: "boom", description: "d", inputSchema: { type: "object" } };
    const { restore } = installFakeNativeModelContext([entry], async () => {
      throw new DOMException("Tool was executed but the invocation failed", "UnknownError");
    });
    try {
      const output = await callModelContextTool({ name: "boom", input: {} });
      expect(text(output)).toBe("Error [tool_failed]: boom failed: UnknownError: Tool was executed but the invocation failed");
    } finally {
      restore();
    }
  });
});

describe("callModelContextTool never rejects", () => {
  it("returns no_webmcp outside a browser", async () => {
    vi.stubGlobal("document", undefined);
    const output = await callModelContextTool({ name: "t", input: {} });
    expect(text(output)).toMatch(/^Error \[no_webmcp\]: Page tools cannot run here: WebMCP needs a browser page/);
  });

  it("returns an error result for a malformed call or a failing getTools", async () => {
    expect(readToolErrorCode(await callModelContextTool(null as never))).toBe("unknown_tool");
    const { context, restore } = installFakeNativeModelContext([]);
    context.getTools = () => Promise.reject(new Error("getTools broke"));
    try {
      const output = await callModelContextTool({ name: "t", input: {} });
      expect(text(output)).toBe("Error [tool_failed]: t could not run: Error: getTools broke");
    } finally {
      restore();
    }
  });
});
