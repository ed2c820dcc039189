import type { ProviderMetadata } from "./agent-message.js";
import type { StepUsage } from "./agent-stream-part.js";

/**
 * What one model step streams, in the same words on every path: the
 * on-device engine's events across the worker boundary (the model's format
 * reads its text into these, in the worker), the cloud's wire events from
 * `/api/chat`, and what an adapter's step hands the shared step loop
 * (`runtime/adapters/run-steps.ts`), which adds the message and call ids the
 * session's `AgentStreamPart`s carry and runs the calls.
 *
 * - `text-delta`, `reasoning`, `tool-call`: as the stream parts of that name.
 *   A `tool-call` without `id` gets one from the loop.
 * - `tool-call-invalid`: a call that could not be read (`inputText` is what
 *   the model wrote, `error` why, with how to write one): it never runs; the
 *   model is answered `Error [invalid_input]` at once.
 * - `usage`: what the step's generation cost (the on-device engine reports it).
 * - `finish`: the step is over (`tool-calls`: the loop runs them and goes on).
 * - `error`: the step failed, and with it the run (`code` picks the widget's
 *   next step).
 */
export type StepPart =
  | { type: "text-delta"; delta: string }
  | { type: "reasoning"; text: string; providerMetadata?: ProviderMetadata }
  | { type: "tool-call"; id?: string; name: string; input: unknown; providerMetadata?: ProviderMetadata }
  | { type: "tool-call-invalid"; id?: string; name: string; inputText: string; error: string }
  | { type: "usage"; usage: StepUsage }
  | { type: "finish"; reason: "stop" | "tool-calls" | "length" | "content-filter" | "aborted" | "other" }
  | { type: "error"; error: string; code?: string };
