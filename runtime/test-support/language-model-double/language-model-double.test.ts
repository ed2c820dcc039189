// The LanguageModel double itself (a double of the Prompt API), held to what
// the explainer says the API does; its shape against the published typings
// is language-model-double.typings.test.ts (tsc in a process: the checks tier).
import { describe, expect, it } from "vitest";
import { createLanguageModelDouble } from "./index.js";

const SCHEMA = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };

const read = async (stream: ReadableStream<string>) => {
  const chunks: string[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<string>) chunks.push(chunk);
  return chunks;
};
const progressOf = (events: Event[]) => events.map((event) => (event as Event & { loaded: number }).loaded);

describe("the LanguageModel double (a double of the Prompt API)", () => {
  it("availability: the state it is in, unavailable for a language it lacks; no constructor of its own", async () => {
    const { LanguageModel, controller } = createLanguageModelDouble({ availability: "downloadable" });
    expect(await LanguageModel.availability()).toBe("downloadable");
    expect(await LanguageModel.availability({ expectedInputs: [{ type: "text", languages: ["en", "ja"] }] })).toBe("downloadable");
    expect(await LanguageModel.availability({ expectedOutputs: [{ type: "text", languages: ["fr"] }] })).toBe("unavailable");
    await expect(LanguageModel.create({ expectedInputs: [{ type: "text", languages: ["fr"] }] })).rejects.toMatchObject({ name: "NotSupportedError" });
    controller.setAvailability("unavailable");
    await expect(LanguageModel.create()).rejects.toMatchObject({ name: "NotSupportedError" });
    expect(() => new (LanguageModel as unknown as new () => unknown)()).toThrow(TypeError);
    expect(await LanguageModel.params()).toBeNull();
  });

  it("a download needs sticky user activation, reports downloadprogress from 0 to 1 on the monitor, and leaves the model available", async () => {
    let active = false;
    const { LanguageModel, controller } = createLanguageModelDouble({ availability: "downloadable", download: "manual", userActivation: () => active });
    await expect(LanguageModel.create()).rejects.toMatchObject({ name: "NotAllowedError" });
    active = true;
    const events: Event[] = [];
    const created = LanguageModel.create({ monitor: (monitor: EventTarget) => monitor.addEventListener("downloadprogress", (event) => events.push(event)) });
    expect(await LanguageModel.availability()).toBe("downloading");
    controller.progress(0.4);
    controller.completeDownload();
    controller.completeLoad();
    const session = await created;
    expect(progressOf(events)).toEqual([0, 0.4, 1]);
    expect((events[0] as Event & { total: number }).total).toBe(1);
    expect(await LanguageModel.availability()).toBe("available");
    // With nothing to download, the two events still come: 0 and 1.
    const again: Event[] = [];
    await LanguageModel.create({ monitor: (monitor: EventTarget) => monitor.addEventListener("downloadprogress", (event) => again.push(event)) });
    expect(progressOf(again)).toEqual([0, 1]);
    session.destroy();
  });

  it("create's signal aborts it; a failed download is a NetworkError and the model downloadable again", async () => {
    const { LanguageModel, controller } = createLanguageModelDouble({ availability: "downloadable", download: "manual", userActivation: () => true });
    const stop = new AbortController();
    const aborted = LanguageModel.create({ signal: stop.signal });
    stop.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    const failing = LanguageModel.create();
    controller.failDownload();
    await expect(failing).rejects.toMatchObject({ name: "NetworkError" });
    expect(controller.availability).toBe("downloadable");
  });

  it("streams the scripted reply in chunks, and enforces responseConstraint on it: a reply that does not fit is a SyntaxError", async () => {
    const { LanguageModel } = createLanguageModelDouble({ chunkSize: 4, respond: ({ input }) => (input[0]!.content === "bad" ? '{"answer": 3}' : '{"answer":"fine"}') });
    const session = await LanguageModel.create();
    const chunks = await read(session.promptStreaming("hi", { responseConstraint: SCHEMA }));
    expect(chunks.join("")).toBe('{"answer":"fine"}');
    expect(chunks.length).toBeGreaterThan(3);
    await expect(session.prompt("bad", { responseConstraint: SCHEMA })).rejects.toMatchObject({ name: "SyntaxError" });
    await expect(session.prompt("hi", { responseConstraint: /^\{"answer":"fine"\}$/ })).resolves.toBe('{"answer":"fine"}');
    await expect(session.prompt("hi", { responseConstraint: /^nope$/ })).rejects.toMatchObject({ name: "SyntaxError" });
    await expect(session.prompt("hi", { responseConstraint: "a string" as unknown as object })).rejects.toBeInstanceOf(TypeError);
    await expect(session.prompt("hi", { omitResponseConstraintInput: true })).rejects.toBeInstanceOf(TypeError);
    const strict = await createLanguageModelDouble({ unsupportedKeywords: ["pattern"], replies: ["x"] }).LanguageModel.create();
    await expect(strict.prompt("hi", { responseConstraint: { type: "object", properties: { pattern: { type: "string", pattern: "^a" } } } })).rejects.toMatchObject({ name: "NotSupportedError" });
  });

  it("counts context: contextUsage grows with each prompt, append and reply, as measureContextUsage says; the constraint counts unless omitted", async () => {
    const { LanguageModel } = createLanguageModelDouble({ replies: ["four", "five"] });
    const session = await LanguageModel.create({ initialPrompts: [{ role: "system", content: "You help." }] });
    const start = session.contextUsage;
    expect(start).toBe(Math.ceil("You help.".length / 4) + 4);
    const measured = await session.measureContextUsage("hello there");
    expect(await session.measureContextUsage("hello there", { responseConstraint: SCHEMA })).toBeGreaterThan(measured);
    expect(await session.measureContextUsage("hello there", { responseConstraint: SCHEMA, omitResponseConstraintInput: true })).toBe(measured);
    await session.prompt("hello there");
    expect(session.contextUsage).toBe(start + measured + 1 + 4);
    await session.append([{ role: "user", content: "more" }]);
    expect(session.contextUsage).toBe(start + measured + 5 + 5);
    expect(session.contextWindow).toBe(9216);
  });

  it("clone forks the session with what it holds; the two go on apart", async () => {
    const { LanguageModel, controller } = createLanguageModelDouble({ respond: ({ index, input }) => `${index}:${input[0]!.content}` });
    const base = await LanguageModel.create({ initialPrompts: [{ role: "system", content: "S" }] });
    const first = await base.clone();
    expect(await first.prompt("a")).toBe("0:a");
    const second = await first.clone();
    expect(await second.prompt("b")).toBe("1:b");
    expect(first.history.map((message) => message.content)).toEqual(["S", "a", "0:a"]);
    expect(second.history.map((message) => message.content)).toEqual(["S", "a", "0:a", "b", "1:b"]);
    expect(base.history.map((message) => message.content)).toEqual(["S"]);
    expect(controller.clones).toBe(2);
  });

  it("overflow: the oldest prompt/response pairs go (never the initial prompts) with contextoverflow; what cannot fit is a QuotaExceededError that removes nothing", async () => {
    const { LanguageModel } = createLanguageModelDouble({ contextWindow: 60, respond: () => "ok" });
    const session = await LanguageModel.create({ initialPrompts: [{ role: "system", content: "sys" }] });
    let overflows = 0;
    session.addEventListener("contextoverflow", () => overflows++);
    let handled = 0;
    session.oncontextoverflow = () => handled++;
    await session.prompt("a".repeat(100));
    await session.prompt("b".repeat(100));
    expect(overflows).toBe(1);
    expect(handled).toBe(1);
    expect(session.history.map((message) => message.content[0])).toEqual(["s", "b", "o"]);
    const before = session.history;
    const error = await session.prompt("c".repeat(400)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "QuotaExceededError", requested: 104 });
    expect(session.history).toEqual(before);
  });

  it("abort removes the prompt and its partial reply; destroy rejects what is pending and refuses what comes", async () => {
    const { LanguageModel } = createLanguageModelDouble({ chunkSize: 1, respond: () => "a long reply, one character at a time" });
    const session = await LanguageModel.create();
    const stop = new AbortController();
    const stream = session.promptStreaming("hi", { signal: stop.signal });
    const reader = stream.getReader();
    await reader.read();
    stop.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
    expect(session.history).toEqual([]);
    const pending = session.prompt("again");
    session.destroy();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(session.prompt("after")).rejects.toMatchObject({ name: "InvalidStateError" });
  });
});
