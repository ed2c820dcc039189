/**
 * Test doubles for the model side: MockLanguageModelV3 (the AI SDK's own,
 * from `ai/test`) streaming scripted chunks, one script per call.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

export type Chunk = LanguageModelV3StreamPart;

/** Usage as a provider reports it. */
export function usage(input: number, output: number): Extract<Chunk, { type: "finish" }>["usage"] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** The chunks of a step that answers `text`. */
export function textStep(text: string, tokens: [number, number] = [10, 5]): Chunk[] {
  const deltas = text.match(/.{1,8}/gs) ?? [];
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t1" },
    ...deltas.map((delta): Chunk => ({ type: "text-delta", id: "t1", delta })),
    { type: "text-end", id: "t1" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usage(...tokens) },
  ];
}

/** The chunks of a step that calls one tool. */
export function toolStep(name: string, input: unknown, id = "call-1", extra: Chunk[] = []): Chunk[] {
  return [
    { type: "stream-start", warnings: [] },
    ...extra,
    { type: "tool-call", toolCallId: id, toolName: name, input: typeof input === "string" ? input : JSON.stringify(input) },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage: usage(20, 8) },
  ];
}

/** A model that streams `scripts[n]` on its n-th call (the last one again after that); it records every call. */
export function scriptedModel(
  scripts: Chunk[][] | ((call: LanguageModelV3CallOptions) => Chunk[]),
  modelId = "scripted",
  chunkDelayInMs: number | null = null,
): MockLanguageModelV3 {
  let index = 0;
  return new MockLanguageModelV3({
    provider: "mock.chat",
    modelId,
    doStream: async (call) => {
      const chunks =
        typeof scripts === "function" ? scripts(call) : (scripts[Math.min(index, scripts.length - 1)] ?? []);
      index += 1;
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs, initialDelayInMs: chunkDelayInMs }) };
    },
  });
}
