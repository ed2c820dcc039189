// createBuiltInAdapter over a double of the Prompt API
// (runtime/test-support/language-model-double/): no built-in model runs here.
// The double enforces each step's responseConstraint on its scripted replies,
// so a reply the adapter's schema would refuse fails the step as a browser
// that cannot comply does.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolOutput } from "../../core/tool-output.js";
import type { AdapterStatus, AgentAdapter, AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentMessage, ToolPart } from "../../session/agent-message.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import { createScriptedAdapter } from "../../testing/create-scripted-adapter.js";
import { createLanguageModelDouble, type DoubleSession, type LanguageModelDoubleOptions } from "../../test-support/language-model-double/index.js";
import { createFallbackAdapter } from "../fallback/create-fallback-adapter.js";
import { createBuiltInAdapter } from "./create-built-in-adapter.js";
import { OVERFLOW_LINE } from "./prompt-messages.js";
import { ANSWER_SCHEMA } from "./response-constraint.js";

const TOOLS: ToolDescriptor[] = [
  { name: "go_to", description: "Go to a page of the store.", inputSchema: { type: "object", properties: { page: { type: "string" } }, required: ["page"], additionalProperties: false } },
  { name: "add_to_cart", description: "Add the product on this page.", inputSchema: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } }, required: ["quantity"] } },
];
const calls = (...list: { tool: string; arguments: unknown }[]) => JSON.stringify({ calls: list });
const answer = (text: string) => JSON.stringify({ answer: text });
const user = (id: string, text: string): AgentMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

function setup(options: LanguageModelDoubleOptions, adapterOptions: Parameters<typeof createBuiltInAdapter>[0] = {}) {
  const double = createLanguageModelDouble({ userActivation: () => true, ...options });
  const adapter = createBuiltInAdapter({ languageModel: double.LanguageModel, ...adapterOptions });
  return { double, adapter, controller: double.controller };
}

/** The statuses an adapter goes through until `until` says stop. */
function recordStatuses(adapter: AgentAdapter & { status(): AdapterStatus; subscribe(listener: () => void): () => void }) {
  const seen: AdapterStatus[] = [adapter.status()];
  const waiters: { test: (status: AdapterStatus) => boolean; resolve: () => void }[] = [];
  adapter.subscribe(() => {
    const status = adapter.status();
    seen.push(status);
    for (const waiter of [...waiters]) if (waiter.test(status)) waiter.resolve();
  });
  const until = (test: (status: AdapterStatus) => boolean) =>
    test(adapter.status()) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }));
  return { seen, until };
}

/** The run's assistant messages, as the session would reduce its parts. */
function toMessages(parts: readonly AgentStreamPart[]): AgentMessage[] {
  const messages: AgentMessage[] = [];
  const calls = new Map<string, ToolPart>();
  for (const part of parts) {
    const last = messages.at(-1);
    if (part.type === "message-start") messages.push({ id: part.messageId, role: "assistant", parts: [] });
    else if (part.type === "text-delta") {
      const text = last!.parts.at(-1);
      if (text?.type === "text") text.text += part.delta;
      else last!.parts.push({ type: "text", text: part.delta });
    } else if (part.type === "tool-call") {
      const call: ToolPart = { type: "tool", id: part.id, name: part.name, input: part.input, state: "running" };
      calls.set(part.id, call);
      last!.parts.push(call);
    } else if (part.type === "tool-result") Object.assign(calls.get(part.id)!, { state: "done", output: part.output });
    else if (part.type === "tool-error") Object.assign(calls.get(part.id)!, { state: "error", error: part.error });
  }
  return messages;
}

async function drive(adapter: AgentAdapter, messages: AgentMessage[], options: { tools?: () => ToolDescriptor[]; signal?: AbortSignal; onPart?: (part: AgentStreamPart) => void } = {}) {
  const executed: { name: string; input: unknown }[] = [];
  const req: AgentRunRequest = {
    messages,
    get tools() {
      return options.tools?.() ?? TOOLS;
    },
    signal: options.signal ?? new AbortController().signal,
    callTool: async (call): Promise<ToolOutput> => {
      executed.push({ name: call.name, input: call.input });
      return { content: [{ type: "text", text: `Did ${call.name}.` }] };
    },
  };
  const parts: AgentStreamPart[] = [];
  for await (const part of adapter.run(req)) {
    parts.push(part);
    options.onPart?.(part);
  }
  return { parts, executed, conversation: [...messages, ...toMessages(parts)] };
}

const textOf = (parts: readonly AgentStreamPart[]) => parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("createBuiltInAdapter statuses (a double of the Prompt API)", () => {
  it("unavailable, saying why: no Prompt API, a language the model lacks, a device that does not qualify", async () => {
    const none = createBuiltInAdapter({ languageModel: null });
    const noApi = recordStatuses(none);
    await noApi.until((status) => status.state === "unavailable");
    expect(none.status()).toEqual({ state: "unavailable", reason: expect.stringMatching(/no built-in model.*Prompt API.*Chrome 148.*not in Web Workers/) });

    const french = setup({}, { languages: ["fr"] }).adapter;
    await recordStatuses(french).until((status) => status.state === "unavailable");
    expect(french.status()).toEqual({ state: "unavailable", reason: expect.stringContaining("does not support French") });

    const device = setup({ availability: "unavailable" }).adapter;
    await recordStatuses(device).until((status) => status.state === "unavailable");
    expect(device.status()).toEqual({ state: "unavailable", reason: expect.stringContaining("This device does not qualify") });
    const { parts } = await drive(device, [user("u1", "Hi")]);
    expect(parts).toEqual([{ type: "error", error: expect.stringContaining("does not qualify"), code: "unsupported_device" }]);
  });

  it("needs-download (the browser downloads it once for every site) -> the click -> downloading with the monitor's progress -> loading -> ready", async () => {
    const { adapter, controller } = setup({ availability: "downloadable", download: "manual" });
    const statuses = recordStatuses(adapter);
    await statuses.until((status) => status.state === "needs-download");
    expect(adapter.status()).toEqual({ state: "needs-download", note: expect.stringMatching(/downloads its built-in model once, for every site.*about 4 GB/) });
    // A run before the download says what to do, and starts nothing.
    expect((await drive(adapter, [user("u1", "Hi")])).parts).toEqual([{ type: "error", error: expect.stringContaining("press Download"), code: "not_cached" }]);
    expect(controller.creates).toEqual([]);

    const prepared = adapter.prepare();
    await statuses.until((status) => status.state === "downloading");
    controller.progress(0.5);
    await statuses.until((status) => status.state === "downloading" && status.progress === 0.5);
    controller.completeDownload();
    await statuses.until((status) => status.state === "loading");
    expect(adapter.status()).toEqual({ state: "loading", progress: 1, stage: "starting" });
    controller.completeLoad();
    await prepared;
    expect(adapter.status()).toEqual({ state: "ready" });
    expect(statuses.seen.map((status) => status.state)).toEqual(["loading", "needs-download", "downloading", "downloading", "loading", "ready"]);
    expect(controller.creates[0]).toMatchObject({ expectedInputs: [{ type: "text", languages: ["en"] }], expectedOutputs: [{ type: "text", languages: ["en"] }] });
  });

  it("the download needs user activation: without any, prepare() rejects with a sentence and the card stays", async () => {
    let active = false;
    const { adapter, controller } = setup({ availability: "downloadable", userActivation: () => active });
    const statuses = recordStatuses(adapter);
    await statuses.until((status) => status.state === "needs-download");
    await expect(adapter.prepare()).rejects.toThrow("The browser downloads its model only once you have clicked or typed on this page. Press Download to start it.");
    expect(adapter.status().state).toBe("needs-download");
    active = true;
    await adapter.prepare();
    expect(adapter.status()).toEqual({ state: "ready" });
    expect(controller.availability).toBe("available");
  });

  it("sticky activation is enough: a click earlier on the page (hasBeenActive), with no fresh one (isActive false), downloads the model", async () => {
    // The double's default reads the page's navigator.userActivation, as the browser checks it.
    vi.stubGlobal("navigator", { userActivation: { isActive: false, hasBeenActive: true } });
    const { adapter, controller } = setup({ availability: "downloadable", userActivation: undefined });
    await recordStatuses(adapter).until((status) => status.state === "needs-download");
    await adapter.prepare();
    expect(adapter.status()).toEqual({ state: "ready" });
    expect(controller.availability).toBe("available");
    vi.stubGlobal("navigator", { userActivation: { isActive: false, hasBeenActive: false } });
    const never = setup({ availability: "downloadable", userActivation: undefined });
    await recordStatuses(never.adapter).until((status) => status.state === "needs-download");
    await expect(never.adapter.prepare()).rejects.toThrow(/only once you have clicked or typed on this page/);
  });

  it("asks availability() with the same expected languages as create(), every time: Chrome warns on a call that names no output language", async () => {
    const asked: unknown[] = [];
    const spying = (double: ReturnType<typeof createLanguageModelDouble>) =>
      ({
        availability: (options?: Record<string, unknown>) => (asked.push(options), double.LanguageModel.availability(options)),
        create: (options?: Record<string, unknown>) => double.LanguageModel.create(options),
      }) as unknown as NonNullable<Parameters<typeof createBuiltInAdapter>[0]>["languageModel"];
    const cases: [LanguageModelDoubleOptions, string[], AdapterStatus["state"]][] = [
      [{ availability: "available" }, ["en"], "ready"],
      [{ availability: "available" }, ["fr"], "unavailable"],
      [{ availability: "unavailable" }, ["en"], "unavailable"],
      [{ availability: "unavailable" }, ["es", "ja"], "unavailable"],
    ];
    for (const [options, languages, state] of cases) {
      const double = createLanguageModelDouble({ userActivation: () => true, ...options });
      const adapter = createBuiltInAdapter({ languageModel: spying(double), languages });
      await recordStatuses(adapter).until((status) => status.state === state);
      if (state === "ready") expect(double.controller.creates[0]).toMatchObject({ expectedInputs: [{ type: "text", languages }], expectedOutputs: [{ type: "text", languages }] });
    }
    expect(asked.length).toBeGreaterThanOrEqual(cases.length);
    for (const options of asked) {
      expect(options).toMatchObject({ expectedInputs: [{ type: "text", languages: expect.any(Array) }], expectedOutputs: [{ type: "text", languages: expect.any(Array) }] });
    }
    // The first question of each adapter carries its own languages, as its create() would.
    expect(asked[0]).toMatchObject({ expectedOutputs: [{ languages: ["en"] }] });
    expect(asked[1]).toMatchObject({ expectedOutputs: [{ languages: ["fr"] }] });
  });

  it("a model already in the browser starts without a click; one another site is downloading is followed", async () => {
    const available = setup({ availability: "available" });
    const seen = recordStatuses(available.adapter);
    await seen.until((status) => status.state === "ready");
    expect(seen.seen).toEqual([{ state: "loading" }, { state: "loading", progress: 1, stage: "starting" }, { state: "ready" }]);

    const downloading = setup({ availability: "downloading", download: "manual", userActivation: () => false });
    const followed = recordStatuses(downloading.adapter);
    await followed.until((status) => status.state === "downloading");
    downloading.controller.progress(0.25);
    await followed.until((status) => status.state === "downloading" && status.progress === 0.25);
    downloading.controller.completeDownload();
    downloading.controller.completeLoad();
    await followed.until((status) => status.state === "ready");
  });

  it("a failed download is an error with Try again (prepare), in the error model's words", async () => {
    const { adapter, controller } = setup({ availability: "downloadable", download: "manual" });
    const statuses = recordStatuses(adapter);
    await statuses.until((status) => status.state === "needs-download");
    const prepared = adapter.prepare();
    await statuses.until((status) => status.state === "downloading");
    controller.failDownload();
    await expect(prepared).rejects.toMatchObject({ code: "download_failed" });
    expect(adapter.status()).toEqual({ state: "error", error: "The browser could not download its built-in model. Check your connection, then try again.", code: "download_failed" });
  });
});

describe("createBuiltInAdapter runs (a double of the Prompt API)", () => {
  it("calls the offered tools one at a time and streams the answer; each step prompts with only what is new on one clone of the base", async () => {
    const { adapter, controller } = setup({ replies: [calls({ tool: "go_to", arguments: { page: "product/trail-socks" } }), calls({ tool: "add_to_cart", arguments: { quantity: 1 } }), answer("Added the trail socks to your cart."), answer("You're welcome.")] });
    const { parts, executed, conversation } = await drive(adapter, [user("u1", "Buy me trail socks")]);
    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(executed).toEqual([
      { name: "go_to", input: { page: "product/trail-socks" } },
      { name: "add_to_cart", input: { quantity: 1 } },
    ]);
    expect(textOf(parts)).toBe("Added the trail socks to your cart.");
    // Streamed as it was written: several deltas, not one at the end.
    expect(parts.filter((part) => part.type === "text-delta").length).toBeGreaterThan(3);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(parts.filter((part) => part.type === "step-finish").map((part) => part.type === "step-finish" && part.usage?.cachedPromptTokens)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);

    // One base (the system prompt and the tools), one clone for the conversation.
    expect(controller.creates).toHaveLength(2);
    const system = (controller.creates[1]!.initialPrompts as { role: string; content: string }[])[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain('- go_to: Go to a page of the store.\n  arguments: {"type":"object"');
    expect(controller.clones).toBe(1);
    const prompts = controller.calls.filter((call) => call.kind === "prompt");
    expect(prompts.map((call) => call.input.map((message) => message.role))).toEqual([["user"], ["user"], ["user"]]);
    expect(prompts[0]!.input[0]!.content).toBe("Buy me trail socks");
    expect(prompts[1]!.input[0]!.content).toBe("[Result of go_to]\nDid go_to.");
    expect(prompts.every((call) => call.omitResponseConstraintInput === true && typeof call.responseConstraint === "object")).toBe(true);

    // The next message in the same conversation: only it is sent, on the same session.
    const before = controller.calls.length;
    const next = await drive(adapter, [...conversation, user("u2", "Thanks!")]);
    expect(next.parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(controller.clones).toBe(1);
    expect(controller.calls.slice(before).map((call) => [call.kind, call.input.map((message) => message.content)])).toEqual([["prompt", ["Thanks!"]]]);
  });

  it("a conversation the session does not hold (a reload, Retry) starts from a clone with its history appended", async () => {
    const { adapter, controller } = setup({ respond: ({ index }) => (index === 0 ? answer("Hello again.") : answer("More.")) });
    const earlier: AgentMessage[] = [user("u1", "Hi"), { id: "a1", role: "assistant", parts: [{ type: "text", text: "Hello." }] }, user("u2", "And now?")];
    const { parts } = await drive(adapter, earlier);
    expect(textOf(parts)).toBe("Hello again.");
    expect(controller.calls.map((call) => [call.kind, call.input.map((message) => message.content)])).toEqual([
      ["append", ["Hi", '{"answer":"Hello."}']],
      ["prompt", ["And now?"]],
    ]);
  });

  it("tools that changed since the session was told of them come as one note with the step's input", async () => {
    const { adapter, controller } = setup({ replies: [calls({ tool: "go_to", arguments: { page: "product/socks" } }), calls({ tool: "add_to_cart", arguments: { quantity: 2 } }), answer("Done.")] });
    // The product page registers add_to_cart once go_to has run.
    let offered = [TOOLS[0]!];
    const { executed } = await drive(adapter, [user("u1", "Two please")], {
      tools: () => offered,
      onPart: (part) => {
        if (part.type === "tool-result") offered = TOOLS;
      },
    });
    expect(executed.map((call) => call.name)).toEqual(["go_to", "add_to_cart"]);
    const second = controller.calls.filter((call) => call.kind === "prompt")[1]!;
    expect(second.input.map((message) => message.content)).toEqual([
      "[Result of go_to]\nDid go_to.",
      expect.stringMatching(/^\[The page's tools changed\] You can call now: go_to, add_to_cart\.\nNew or changed:\n- add_to_cart: /),
    ]);
  });

  it("after maxSteps the closing summary's constraint admits only an answer, and the run ends max-steps", async () => {
    const { adapter, controller } = setup({ replies: [calls({ tool: "go_to", arguments: { page: "cart" } }), answer("I went to the cart; that is as far as I got.")] }, { maxSteps: 1 });
    const { parts } = await drive(adapter, [user("u1", "Buy everything")]);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "max-steps" });
    const prompts = controller.calls.filter((call) => call.kind === "prompt");
    expect(prompts[1]!.responseConstraint).toEqual(ANSWER_SCHEMA);
    expect(prompts[1]!.input.at(-1)!.content).toContain("[Step limit reached]");
  });

  it("a schema the browser cannot be sent holds that tool to an object with one warning; a call invalid against the full schema never runs", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const tricky: ToolDescriptor = { name: "set_size", description: "Pick a size.", inputSchema: { type: "object", properties: { size: { oneOf: [{ const: "S" }, { const: "M" }] } }, required: ["size"] } };
    const { adapter } = setup({ replies: [calls({ tool: "set_size", arguments: { size: "XL" } }), calls({ tool: "set_size", arguments: { size: "M" } }), answer("Size M.")] });
    const { parts, executed } = await drive(adapter, [user("u1", "Medium")], { tools: () => [tricky] });
    expect(executed).toEqual([{ name: "set_size", input: { size: "M" } }]);
    expect(parts.find((part) => part.type === "tool-error")).toMatchObject({ error: expect.stringMatching(/^Error \[invalid_input\]: The input for set_size does not match its schema/) });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('set_size are held to an object only: the browser cannot be sent its schema\'s "oneOf"');
  });

  it("a schema the browser refuses (NotSupportedError) is retried once with every tool held to an object", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const patterned: ToolDescriptor = { name: "find", description: "Find.", inputSchema: { type: "object", properties: { sku: { type: "string", pattern: "^[A-Z]+$" } } } };
    const { adapter, controller } = setup({ unsupportedKeywords: ["pattern"], replies: [calls({ tool: "find", arguments: { sku: "ABC" } }), answer("Found it.")] });
    const { executed, parts } = await drive(adapter, [user("u1", "Find ABC")], { tools: () => [patterned] });
    expect(executed).toEqual([{ name: "find", input: { sku: "ABC" } }]);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(controller.calls.filter((call) => call.kind === "prompt")).toHaveLength(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("a conversation that outgrows the context window drops its oldest turns (the system prompt and tools kept) and says so in one line", async () => {
    const long = "x".repeat(1600);
    const { adapter, controller } = setup({ contextWindow: 1400, respond: () => answer("Still here.") });
    const history: AgentMessage[] = [];
    for (let turn = 0; turn < 4; turn++) history.push(user(`u${turn}`, `${turn}: ${long}`), { id: `a${turn}`, role: "assistant", parts: [{ type: "text", text: "Noted." }] });
    const { parts } = await drive(adapter, [...history, user("u9", "Sum up")]);
    expect(textOf(parts)).toBe(`${OVERFLOW_LINE}\n\nStill here.`);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    const [session] = [...controller.sessions].filter((each) => each.history.some((message) => message.content === "Sum up"));
    expect(session!.history[0]!.role).toBe("system");
    expect(session!.history.some((message) => message.content.startsWith("0: "))).toBe(false);
    expect(session!.contextUsage).toBeLessThanOrEqual(1400);
  });

  it("when the browser itself drops old turns (its contextoverflow), the reply says so in one line too", async () => {
    const double = createLanguageModelDouble({ contextWindow: 700, respond: () => answer("Still with you.") });
    // A browser whose measure leaves something out: the adapter believes the step fits, and the browser makes room itself.
    const underMeasuring = (session: DoubleSession): DoubleSession => {
      session.measureContextUsage = async () => 0;
      const clone = session.clone.bind(session);
      session.clone = async (options) => underMeasuring(await clone(options));
      return session;
    };
    const api = { availability: double.LanguageModel.availability, create: async (options?: Record<string, unknown>) => underMeasuring(await double.LanguageModel.create(options)) };
    const adapter = createBuiltInAdapter({ languageModel: api as unknown as NonNullable<Parameters<typeof createBuiltInAdapter>[0]>["languageModel"] });
    const first = await drive(adapter, [user("u1", "z".repeat(1200))]);
    expect(textOf(first.parts)).toBe("Still with you.");
    const second = await drive(adapter, [...first.conversation, user("u2", "w".repeat(1200))]);
    expect(textOf(second.parts)).toBe(`${OVERFLOW_LINE}\n\nStill with you.`);
    const session = [...double.controller.sessions].find((each) => each.history.some((message) => message.content.startsWith("w")))!;
    expect(session.history[0]!.role).toBe("system");
    expect(session.history.some((message) => message.content.startsWith("z"))).toBe(false);
  });

  it("a message that cannot fit even alone ends the run with context_overflow and a sentence, never the browser's words", async () => {
    const { adapter } = setup({ contextWindow: 900, respond: () => answer("Never.") });
    const { parts } = await drive(adapter, [user("u1", "y".repeat(8000))]);
    expect(parts).toEqual([{ type: "error", error: "This conversation no longer fits the browser's built-in model, even without its earliest turns. Start a new chat, or use another model.", code: "context_overflow" }]);
  });

  it("Stop mid-answer ends aborted; the session keeps nothing of that prompt, and the next run goes on", async () => {
    const { adapter, controller } = setup({ chunkSize: 2, respond: ({ input }) => answer(input.some((message) => message.content === "Again") ? "Fresh." : "A long answer that is stopped halfway through.") });
    const stop = new AbortController();
    const { parts, conversation } = await drive(adapter, [user("u1", "Talk")], {
      signal: stop.signal,
      onPart: (part) => part.type === "text-delta" && stop.abort(),
    });
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "aborted" });
    // The prompt and its partial reply were removed from the session (the explainer's abort).
    expect([...controller.sessions].some((session) => session.history.some((message) => message.content === "Talk" || message.role === "assistant"))).toBe(false);
    const next = await drive(adapter, [...conversation, user("u2", "Again")]);
    expect(textOf(next.parts)).toBe("Fresh.");
  });

  it("createFallbackAdapter([builtIn, local, cloud]): a run failing on the built-in model continues on the next, in the error model's words", async () => {
    const { adapter } = setup({ respond: () => {
      throw new DOMException("model crashed: internal detail 0x42", "UnknownError");
    } });
    await recordStatuses(adapter).until((status) => status.state === "ready");
    const local = createScriptedAdapter({ id: "local", label: "On this device", runs: [[{ type: "message-start", messageId: "l1" }, { type: "text-delta", messageId: "l1", delta: "Answered on this device." }, { type: "finish", reason: "stop" }]] });
    const cloud = createScriptedAdapter({ id: "cloud", label: "Cloud", runs: [] });
    const fallback = createFallbackAdapter([adapter, local, cloud]);
    const { parts } = await drive(fallback, [user("u1", "Hi")]);
    expect(textOf(parts)).toBe("Answered on this device.");
    expect(parts.some((part) => part.type === "error")).toBe(false);
    expect(fallback.notice()).toMatchObject({ from: "built-in", to: "local", code: "generation_failed" });
    expect(cloud.requests).toEqual([]);
    expect(JSON.stringify(parts)).not.toContain("0x42");
  });
});

describe("createBuiltInAdapter: options grouped as createLocalAdapter's", () => {
  it("takes catalog.autoLoad, the local adapter's name: false leaves a model the browser already has unstarted until the first run", async () => {
    const { adapter, controller } = setup({ availability: "available" }, { catalog: { autoLoad: false } });
    adapter.status();
    await vi.waitFor(() => expect(adapter.status().state).toBe("ready"));
    expect(controller.creates).toEqual([]);
  });

  it("is a TypeError naming catalog.autoLoad for autoLoad, and listing the names it takes for any other", () => {
    // A plain-JavaScript caller: the type already refuses these names.
    expect(() => createBuiltInAdapter({ autoLoad: false } as never)).toThrow(new TypeError('createBuiltInAdapter does not take the option "autoLoad": pass catalog.autoLoad instead (see docs/api/create-built-in-adapter.md).'));
    expect(() => createBuiltInAdapter({ languges: ["fr"] } as never)).toThrow('createBuiltInAdapter does not take the option "languges": it takes id, label, maxSteps, catalog, generation, languages, languageModel');
    expect(() => createBuiltInAdapter({ autoLoad: undefined, languageModel: null } as never)).not.toThrow();
  });
});
