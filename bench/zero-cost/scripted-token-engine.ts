import type { ModelEngine } from "../../worker/model-engine.js";
import { nextTask } from "../../worker/next-task.js";
import type { GenerateRequest, RawEngineEvent } from "../../worker/protocol.js";
import { sharedNow } from "../shared-clock.js";
import { portPosts } from "./port-posts.js";
import { scriptedTokens } from "./scripted-reply.js";

/** What one zero-cost generation is asked for, written as the user's message: `zero-cost <tokens> tokens at <rate> tok/s`. */
export interface ZeroCostPlan {
  tokens: number;
  /** Tokens per second; 0: as fast as the worker can. */
  rate: number;
}

export const planText = (plan: ZeroCostPlan): string => `zero-cost ${plan.tokens} tokens at ${plan.rate} tok/s`;

export function readPlan(request: GenerateRequest): ZeroCostPlan {
  const last = [...request.messages].reverse().find((message) => message.role === "user");
  const match = /zero-cost (\d+) tokens at (\d+) tok\/s/.exec(typeof last?.content === "string" ? last.content : "");
  if (!match) throw new Error("zero-cost engine: the user message names no plan");
  return { tokens: Number(match[1]), rate: Number(match[2]) };
}

/** What the scripted engine adds to its usage event, beyond `GenerationUsage` (the bench reads it off the engine client). */
export interface ZeroCostTimes {
  /** When `generate` was entered, on the shared clock. */
  engineStartedAt: number;
  /** When the last token was emitted, on the shared clock. */
  lastTokenAt: number;
  /** Messages the worker posted on ports (not counting `null`s: the engine's task yields) between `generate` and the usage. */
  portMessages: number;
}

/**
 * A model engine that costs nothing: it emits a scripted reply
 * (scripted-reply.ts), one token a task, at the plan's rate, so what the
 * worker spends beyond it is the runtime's (the format's parser, the port).
 * Between tokens it yields a task as TransformersEngine does before every
 * forward pass; ahead of schedule by more than 2 ms it waits on a timer.
 */
export class ScriptedTokenEngine implements ModelEngine {
  async load(): Promise<void> {}

  async generate(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void> {
    const engineStartedAt = sharedNow();
    const postsBefore = portPosts.count;
    const plan = readPlan(request);
    const tokens = scriptedTokens(plan.tokens);
    const started = performance.now();
    let firstTokenAt = 0;
    let lastTokenAt = 0;
    for (let index = 0; index < tokens.length; index++) {
      if (signal.aborted) break;
      if (index > 0) await nextTask();
      if (plan.rate > 0) {
        const ahead = started + (index / plan.rate) * 1000 - performance.now();
        if (ahead > 2) await new Promise((resolve) => setTimeout(resolve, ahead));
      }
      lastTokenAt = sharedNow();
      if (index === 0) firstTokenAt = lastTokenAt;
      onEvent({ type: "text", text: tokens[index]! });
    }
    const seconds = (lastTokenAt - firstTokenAt) / 1000;
    const times: ZeroCostTimes = { engineStartedAt, lastTokenAt, portMessages: portPosts.count - postsBefore };
    onEvent({
      type: "usage",
      usage: {
        promptTokens: 0,
        cachedPromptTokens: 0,
        outputTokens: tokens.length,
        timeToFirstTokenMs: firstTokenAt - engineStartedAt,
        decodeTokensPerSecond: seconds > 0 ? (tokens.length - 1) / seconds : 0,
        firstTokenAt,
        ...times,
      } as never,
    });
    onEvent({ type: "finish", reason: signal.aborted ? "aborted" : "length" });
  }
}
