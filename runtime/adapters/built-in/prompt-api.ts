/**
 * The part of the Prompt API (`LanguageModel`, the explainer's IDL) the
 * built-in adapter uses, declared here rather than as globals: a page
 * without the API still type-checks, and a test hands the adapter a double
 * (runtime/test-support/language-model-double/, checked against
 * `@types/dom-chromium-ai`).
 */

/** `LanguageModel.availability()`'s answer. */
export type PromptApiAvailability = "unavailable" | "downloadable" | "downloading" | "available";

/** The explainer's high-level sampling presets (`create({ samplingMode })`). */
export type PromptApiSamplingMode = "most-predictable" | "predictable" | "balanced" | "creative" | "most-creative";

/** `{ type, languages }` of `expectedInputs` / `expectedOutputs`. */
export interface PromptApiExpected {
  type: "text";
  languages?: string[];
}

/** One message of a prompt: the adapter writes text only. */
export interface PromptApiMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What `availability()` and `create()` share. */
export interface PromptApiCoreOptions {
  expectedInputs?: PromptApiExpected[];
  expectedOutputs?: PromptApiExpected[];
  samplingMode?: PromptApiSamplingMode;
  /** Honoured in extension contexts only (the explainer's legacy raw parameters). */
  temperature?: number;
  topK?: number;
}

/** The monitor `create()` hands its callback: `downloadprogress` events, `loaded` from 0 to 1. */
export interface PromptApiMonitor extends EventTarget {}

export interface PromptApiCreateOptions extends PromptApiCoreOptions {
  signal?: AbortSignal;
  monitor?: (monitor: PromptApiMonitor) => void;
  initialPrompts?: PromptApiMessage[];
}

export interface PromptApiPromptOptions {
  responseConstraint?: Record<string, unknown> | RegExp;
  omitResponseConstraintInput?: boolean;
  signal?: AbortSignal;
}

/** A session: a persistent conversation with the model. */
export interface PromptApiSession extends EventTarget {
  prompt(input: string | PromptApiMessage[], options?: PromptApiPromptOptions): Promise<string>;
  /** Streams the reply in pieces (each chunk is what is new). */
  promptStreaming(input: string | PromptApiMessage[], options?: PromptApiPromptOptions): ReadableStream<string>;
  append(input: string | PromptApiMessage[], options?: { signal?: AbortSignal }): Promise<undefined>;
  measureContextUsage(input: string | PromptApiMessage[], options?: PromptApiPromptOptions): Promise<number>;
  readonly contextUsage: number;
  readonly contextWindow: number;
  clone(options?: { signal?: AbortSignal }): Promise<PromptApiSession>;
  destroy(): void;
}

/** The `LanguageModel` interface object: its static methods. */
export interface PromptApi {
  availability(options?: PromptApiCoreOptions): Promise<PromptApiAvailability>;
  create(options?: PromptApiCreateOptions): Promise<PromptApiSession>;
}

/**
 * The page's `LanguageModel`, or `undefined` where the browser has none (no
 * Prompt API, not a secure context, or a Web Worker, where it is not exposed).
 */
export function pagePromptApi(): PromptApi | undefined {
  const api = (globalThis as { LanguageModel?: unknown }).LanguageModel;
  return typeof api === "function" || (typeof api === "object" && api !== null) ? (api as PromptApi) : undefined;
}
