// The runtime path of the bench (run-bench-page.ts): the package's public createLocalAdapter over the
// real engine worker, and the template messages it sends its engine, which every path is given.
import { createLocalAdapter, type AgentMessage, type CatalogEntry } from "@webmcp-agents/chat/runtime";
import { probeCapabilities } from "../worker/capability-probe.js";
import { createEngineClient, type EngineClient } from "../worker/engine-client.js";
import type { EngineHost, GenerationUsage, StepRequest, TemplateMessage } from "../worker/protocol.js";
import { stepPrompt } from "../worker/step-format.js";
import type { BenchConfig, GenerationSample, ToolLoopSample, ToolLoopStep } from "./bench-types.js";
import { generationSample, type LoadedPath } from "./loaded-path.js";
import { longTaskRecorder } from "./long-task-recorder.js";
import { isVisible, onThisTimeline } from "./shared-clock.js";
import { BENCH_TOOLS, toolLoopMessages } from "./tool-loop.js";

/** A fresh engine worker and its client. */
export const spawnEngine = (): EngineClient => createEngineClient({ spawn: () => new Worker(new URL("../worker/engine-worker.ts", import.meta.url), { type: "module" }) });

/** The template messages the runtime sends its engine for this prompt, caught by an engine that generates nothing. */
export async function captureTemplateMessages(entry: CatalogEntry, userMessage: AgentMessage, maxNewTokens: number): Promise<TemplateMessage[]> {
  let captured: StepRequest | undefined;
  const catcher: EngineHost = {
    probe: probeCapabilities,
    cacheStatus: async () => ({ cached: true }),
    download: async () => {},
    load: async () => {},
    generate: async (request, onEvent) => {
      captured = request;
      onEvent({ type: "finish", reason: "stop" });
    },
    cancel: async () => {},
    deleteModel: async () => {},
  };
  const adapter = createLocalAdapter({ catalog: { models: [entry], model: entry.id, autoLoad: false }, worker: { host: catcher }, generation: { maxNewTokens, temperature: 0 } });
  for await (const _part of adapter.run({ messages: [userMessage], tools: [], signal: new AbortController().signal, callTool: async () => ({ content: [] }) as never })) {
    // drain
  }
  if (!captured) throw new Error("The runtime sent no generation to its engine.");
  return stepPrompt(captured).messages;
}

/** The runtime path: `createLocalAdapter` over the real engine worker; each generation is a new conversation (no KV reuse). */
export async function loadRuntime(entry: CatalogEntry, userText: string, config: BenchConfig, threads: number): Promise<LoadedPath> {
  const client = spawnEngine();
  let usage: GenerationUsage | undefined;
  /** When the page got the usage event (the generation's end). */
  let usageAt = 0;
  let ranOn: number | undefined;
  // Only to read the usage the engine reports; every call passes straight through.
  const engine: EngineHost = {
    ...client,
    generate: (request, onEvent) =>
      client.generate(request, (event) => {
        if (event.type === "usage") {
          usage = event.usage;
          usageAt = performance.now();
          ranOn = event.usage.threads;
        }
        onEvent(event);
      }),
  };
  try {
    const adapter = createLocalAdapter({ catalog: { models: [entry], model: entry.id, autoLoad: false }, worker: { host: engine, threads }, generation: { maxNewTokens: config.outputTokens, temperature: 0 } });
    const loadStarted = performance.now();
    await adapter.prepare();
    const loadMs = performance.now() - loadStarted;
    let count = 0;
    const generate = async (): Promise<GenerationSample> => {
      // A new first message id is a new conversation: the engine keeps no KV cache for it.
      const userMessage: AgentMessage = { id: `bench-user-${++count}`, role: "user", parts: [{ type: "text", text: userText }] };
      usage = undefined;
      const recorder = longTaskRecorder();
      recorder.start();
      const started = performance.now();
      let first: number | undefined;
      let text = "";
      let error: string | undefined;
      for await (const part of adapter.run({ messages: [userMessage], tools: [], signal: new AbortController().signal, callTool: async () => ({ content: [] }) as never })) {
        if (part.type === "text-delta") {
          if (first === undefined && isVisible(part.delta)) first = performance.now();
          text += part.delta;
        } else if (part.type === "error") error = part.error;
      }
      const ended = performance.now();
      const tasks = recorder.stop();
      if (error) throw new Error(`runtime: ${error}`);
      const reported = usage as GenerationUsage | undefined;
      if (!reported) throw new Error("runtime: the engine reported no usage");
      if (reported.cachedPromptTokens > 0) throw new Error("runtime: the engine reused a KV cache; the bench's generations must start fresh");
      return generationSample(started, first, ended, {
        promptTokens: reported.promptTokens,
        outputTokens: reported.outputTokens,
        text,
        workerTtftMs: reported.timeToFirstTokenMs,
        workerDecodeTokPerS: reported.decodeTokensPerSecond,
        firstTokenAt: reported.firstTokenAt ?? 0,
      }, tasks);
    };

    // The tool loop: one output token, its time to first token is the figure. (With more, the
    // format's parser may hold back a random-weight model's leading whitespace until the end.)
    const loopAdapter = createLocalAdapter({ catalog: { models: [entry], model: entry.id, autoLoad: false }, worker: { host: engine, threads }, generation: { maxNewTokens: 1, temperature: 0 } });
    await loopAdapter.prepare();
    const loopStep = async (messages: AgentMessage[]): Promise<ToolLoopStep> => {
      usage = undefined;
      let first: number | undefined;
      let text = "";
      let error: string | undefined;
      let reported: GenerationUsage | undefined;
      const started = performance.now();
      for await (const part of loopAdapter.run({ messages, tools: BENCH_TOOLS, signal: new AbortController().signal, callTool: async () => ({ content: [] }) as never })) {
        // The first step's reply only (a random-weight model could write a call, and the loop go on).
        if (!reported && usage) {
          reported = usage;
          first ??= usageAt;
        }
        if (reported) continue;
        if (part.type === "text-delta" || part.type === "reasoning" || part.type === "tool-call") first ??= performance.now();
        if (part.type === "text-delta") text += part.delta;
        else if (part.type === "error") error = part.error;
      }
      if (error) throw new Error(`runtime tool loop: ${error}`);
      if (!reported && usage) {
        reported = usage;
        first ??= usageAt;
      }
      if (!reported) throw new Error("runtime tool loop: the engine reported no usage");
      // The engine's first token, as every path is timed (shared-clock.ts); the page's first part where it reports none.
      const ttftMs = reported.firstTokenAt ? onThisTimeline(reported.firstTokenAt) - started : (first ?? performance.now()) - started;
      return { promptTokens: reported.promptTokens, cachedPromptTokens: reported.cachedPromptTokens, ttftMs, workerTtftMs: reported.timeToFirstTokenMs, text };
    };
    let loops = 0;
    const toolLoop = async (): Promise<ToolLoopSample> => {
      const id = `bench-loop-${++loops}`;
      const { step1, step2, turn2 } = toolLoopMessages(id, userText);
      const first = await loopStep(step1);
      // The same first message id: the same conversation, so the engine starts from step 1's cache.
      const reused = await loopStep(step2);
      // The next user turn, after step 2 in the same conversation.
      const turn2Reused = await loopStep(turn2);
      // Another first message id: a new conversation, the same prompt ids, prefilled from scratch.
      const fresh = await loopStep(toolLoopMessages(`${id}-fresh`, userText).step2);
      const turn2Fresh = await loopStep(toolLoopMessages(`${id}-fresh-turn2`, userText).turn2);
      return { step1: first, reused, fresh, turn2: { reused: turn2Reused, fresh: turn2Fresh } };
    };
    return { loadMs, generate, threads: () => ranOn, toolLoop, terminate: () => client.terminate() };
  } catch (error) {
    client.terminate();
    throw error;
  }
}
