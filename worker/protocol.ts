/**
 * The worker boundary, in one file: the engine interface, every type that
 * crosses it and every message its ports carry. The worker host implements
 * {@link EngineHost}; so does the main-thread client that talks to it, so
 * the local adapter cannot tell where the engine runs. Everything here is
 * plain, structured-cloneable data.
 *
 * - Every request names its model (a {@link ModelSource}), so a worker the
 *   browser killed can be restarted and reload the model from cache.
 * - Every generation names its conversation, so the engine can keep that
 *   conversation's token ids and KV cache and prefill only what changed.
 * - A generation streams the session's own `StepPart`s ({@link EngineEvent}),
 *   read from the model's text in the worker: the page hands them to the
 *   step loop as they arrive, translating nothing.
 * - Calls cross by comlink ({@link WiredEngineHost}), a generation as one
 *   message on its own port ({@link GenerationCall}, {@link GenerationReply});
 *   aborts cross as an explicit `cancel(id)`.
 * - Errors cross as {@link EngineErrorData} and are rebuilt as typed errors.
 * - A SharedWorker's port opens with a hello each way ({@link ClientHello},
 *   {@link WorkerHello}): the Web Locks that tell each side the other is gone.
 */
import type { AgentMessage } from "../runtime/session/agent-message.js";
import type { StepUsage } from "../runtime/session/agent-stream-part.js";
import type { StepPart } from "../runtime/session/step-part.js";
import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";

export type { DeviceCapabilities, PolicyBlock } from "../models/device-capabilities.js";
export type { EngineDevice, EngineKind, ModelFile, ModelSource } from "../models/model-source.js";
import type { DeviceCapabilities } from "../models/device-capabilities.js";
import type { ModelSource } from "../models/model-source.js";

/** Byte progress over all of a model's files. */
export interface DownloadProgress {
  loadedBytes: number;
  totalBytes: number;
  /** The file being fetched now. */
  file?: string;
}

/** Progress of reading a cached model into the engine, 0 to 1. */
export interface LoadProgress {
  progress: number;
  /**
   * `starting`: the files are read and the engine is creating its session,
   * which reports no progress of its own (seconds for a large model). Absent
   * while the files are read.
   */
  stage?: "starting";
}

/** Whether a model is on this device, known without the network. */
export interface CacheStatus {
  cached: boolean;
  /** Bytes it takes, when cached. */
  bytes?: number;
  /**
   * Set when a saved copy was found broken just now (files the browser
   * evicted) and removed, so the model needs a download again.
   */
  removed?: "damaged" | "evicted";
  /**
   * A copy of other files is here: saved before the catalog moved the model
   * to another commit or file list. It does not load; a download replaces
   * it, copying the files whose pinned sha256 did not change.
   */
  outdated?: boolean;
}

/** One message in the model's own chat-template shape (declared with the model formats, in models/). */
export type { ModelFormatId, TemplateMessage } from "../models/model-format.js";
import type { ModelFormatId, TemplateMessage } from "../models/model-format.js";

/**
 * One model step, as the page asks it: the conversation in (the worker
 * renders the prompt from it, once: `step-format.ts`), step parts out.
 */
export interface StepRequest extends Omit<GenerateRequest, "messages"> {
  /** The conversation so far, as the session holds it (tool results already cut to what the model reads). */
  conversation: AgentMessage[];
  /** The agent's instructions, one line each, under the system prompt's "About this site". */
  instructions?: readonly string[];
  /** Replaces the system prompt's first lines (`BASE_SYSTEM_PROMPT`). */
  basePrompt?: string;
}

/** One generation inside the worker: a prompt in the model's chat-template shape in, streamed text out (`ModelEngine`). */
export interface GenerateRequest {
  /** Names this generation for `cancel`. */
  id: string;
  model: ModelSource;
  /** The conversation this continues; the engine may reuse its KV cache. */
  conversationId: string;
  messages: TemplateMessage[];
  /** Rendered by the chat template; their schemas may also constrain a call's JSON. */
  tools: ToolDescriptor[];
  maxNewTokens?: number;
  /** 0 for greedy. Default: the model's generation_config. */
  temperature?: number;
  /** The model's thinking mode (Qwen3, Qwen3.5). Default false (the Qwen3.5 Small templates' own default). */
  enableThinking?: boolean;
  /**
   * Whether the model may (`auto`), must (`required`) or must not (`none`:
   * the closing summary after `maxSteps`) call a tool. Enforced while
   * decoding where the call is constrained (transformers.js with
   * `constrainToolCalls`). Default `auto`.
   */
  toolChoice?: "auto" | "required" | "none";
  /**
   * Constrain each tool call while it is decoded to the format's syntax, an
   * offered tool's name and arguments valid against its schema
   * (worker/tool-call-constraint/). Default true.
   */
  constrainToolCalls?: boolean;
  /**
   * Count the calls the constraint repaired (`usage.repairedCalls`): one
   * pass over the logits per token inside a call, so off unless asked
   * (`evaluateAgent` asks). Default false.
   */
  reportRepairs?: boolean;
}

/**
 * What a generation streams across the worker boundary: `StepPart`s, the
 * same words the session's step loop reads on every path
 * (runtime/session/step-part.ts). The worker reads the model's text with
 * its format (the main thread parses no model text) into `text-delta`,
 * `reasoning`, each `tool-call` with its parsed input, or a
 * `tool-call-invalid` with why and how to write one (it never runs); then
 * the step's `usage`, and exactly one `finish` last (`aborted` when it was
 * cancelled). The page's step loop takes them as they are.
 */
export type EngineEvent =
  | Extract<StepPart, { type: "text-delta" | "reasoning" | "tool-call" | "tool-call-invalid" }>
  | { type: "usage"; usage: GenerationUsage }
  | { type: "finish"; reason: "stop" | "length" | "aborted" };

/** What an engine itself reports: the model's raw text, which the host reads with the format, then the usage and the finish. */
export type RawEngineEvent = { type: "text"; text: string } | Extract<EngineEvent, { type: "usage" } | { type: "finish" }>;

/** The step's cost as the engine measured it: a `StepUsage` (what the session keeps) with the engine's own timings. */
export interface GenerationUsage extends StepUsage {
  /** Prompt tokens served from the conversation's KV cache. */
  cachedPromptTokens: number;
  timeToFirstTokenMs: number;
  decodeTokensPerSecond: number;
  /**
   * When the first token was sampled, as `performance.timeOrigin +
   * performance.now()` in the engine's context: a clock the page shares, so
   * it can time its own call against the engine's event (the bench does).
   * Absent when no token was sampled.
   */
  firstTokenAt?: number;
  /**
   * The ONNX Runtime WASM threads the generation ran on, as ONNX Runtime
   * started them (see {@link ModelSource.threads}). Only transformers.js on
   * `wasm` in a browser reports it.
   */
  threads?: number;
  /**
   * Tool calls the constraint changed: at some token of the call its mask
   * refused the token the model found likeliest. Only generations under the
   * constraint (transformers.js, `constrainToolCalls` on) that asked for it
   * (`reportRepairs`) report it.
   */
  repairedCalls?: number;
}

/** Why an engine call failed, as data (the list is declared once, in runtime/errors/error-codes.ts). */
export type { EngineErrorCode } from "../runtime/errors/error-codes.js";
import type { EngineErrorCode } from "../runtime/errors/error-codes.js";

/** An error as it crosses the boundary: `{ code, message, ...fields }`. */
export interface EngineErrorData {
  code: EngineErrorCode;
  message: string;
  /** For `quota_exceeded`: bytes needed and bytes free. */
  neededBytes?: number;
  freeBytes?: number;
  /** For `download_failed` / `integrity_failed`: the file. */
  file?: string;
  /** For `download_failed`: the HTTP status. */
  status?: number;
  /** What went wrong, finer than `code`: it picks the sentence the person reads (`engineErrorMessage`). */
  reason?: EngineErrorReason;
  /** For a failed download: the host it talked to. */
  host?: string;
  /** For `blocked_by_policy`: the directive of the Content-Security-Policy that blocked it. */
  directive?: string;
  /** For `blocked_by_policy`: what the site must allow in `directive` (a keyword, scheme or origin). */
  allow?: string;
  /** The browser's or engine's own words, for developers; never shown to the person. */
  detail?: string;
}

/**
 * Why a download or load failed, as far as the person can act on it:
 * - `unreachable`: the request never got an answer (offline, DNS, refused).
 * - `connection_dropped`: the body stopped midway; the next download resumes.
 * - `http_status`: the server answered with an error status (`status`).
 * - `not_a_model_file`: the server sent a web page (text/html) instead of the file.
 * - `size_mismatch` / `hash_mismatch`: the file is not the one pinned or announced; nothing was kept.
 * - `storage_failed`: the browser would not save the file (not a quota error).
 * - `damaged` / `evicted`: the saved copy could not be read, or the browser
 *   deleted some of its files; the rest was removed (`not_cached`).
 * - `outdated`: the saved copy is of an earlier release of the model's files
 *   (`not_cached`); a download reuses the files that did not change.
 * - `engine_failed`: the engine could not start the model from a good copy.
 * - `blocked_by_policy`: the site's Content-Security-Policy blocked a request
 *   or WebAssembly (`directive`, `allow`: what the site must allow).
 */
export type EngineErrorReason =
  | "unreachable"
  | "connection_dropped"
  | "http_status"
  | "not_a_model_file"
  | "size_mismatch"
  | "hash_mismatch"
  | "storage_failed"
  | "damaged"
  | "evicted"
  | "outdated"
  | "engine_failed"
  | "blocked_by_policy";

/**
 * The engine, on either side of the worker boundary. Methods that take a
 * callback call it zero or more times and resolve after the last call.
 */
export interface EngineHost {
  probe(): Promise<DeviceCapabilities>;
  cacheStatus(model: ModelSource): Promise<CacheStatus>;
  /** Fetches every file once, writes the cache, then the manifest; `id` names it for `cancel`. */
  download(id: string, model: ModelSource, onProgress: (progress: DownloadProgress) => void): Promise<void>;
  /** Reads a cached model into the engine. Rejects `not_cached` when it is not on this device. */
  load(model: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<void>;
  generate(request: StepRequest, onEvent: (event: EngineEvent) => void): Promise<void>;
  /** Stops the download or generation named `id`; a no-op once it ended. */
  cancel(id: string): Promise<void>;
  /** Removes a model's files and manifest. */
  deleteModel(model: ModelSource): Promise<void>;
  /**
   * Calls `listener` when the engine's worker stopped on its own (it
   * crashed, the browser stopped it, or, shared, another tab's failed load
   * ended it) and what it had loaded is gone. Returns a function that stops
   * listening. A host that cannot stop (in one thread) leaves it out.
   */
  onStopped?(listener: () => void): () => void;
}

// What the worker's ports carry.

/**
 * The host as the worker exposes it: the {@link EngineHost} methods but
 * `generate`, with errors as data and every callback's last call delivered
 * before the method resolves, and `openGenerations`: the client hands over
 * one port when it connects, and each generation's request then crosses as
 * one message on it, its events coming back on it (no comlink call, no
 * channel made per generation, no reply per event).
 */
export interface WiredEngineHost extends Omit<EngineHost, "generate"> {
  openGenerations(port: MessagePort): void;
}

/**
 * What a generation's port carries to the worker: one request, tagged with
 * the client's key for it; or a cancel, which on this port can never
 * overtake the request it cancels (a Stop pressed as the request leaves).
 */
export type GenerationCall = { key: number; request: StepRequest } | { cancel: string };

/** What it carries back: a frame's events (coalesce-events.ts), then `done` or the error as data. */
export type GenerationReply = { key: number; events: EventBatch } | { key: number; done: true } | { key: number; error: EngineErrorData };

/** What crosses the generation's port: one event, or the events of one frame in order. */
export type EventBatch = EngineEvent | EngineEvent[];

/**
 * The first message a client posts on a shared worker's port, before any
 * comlink call: the name of a Web Lock it holds for as long as it lives, so
 * the worker learns when the tab is gone (closed, navigated, crashed: the
 * browser releases its locks), which no MessagePort event tells it.
 */
export interface ClientHello {
  webAgentsClient: string;
}

/** The worker's answer: the name of a Web Lock it holds for its own life, so each tab learns when the worker is gone. */
export interface WorkerHello {
  webAgentsWorker: string;
}

export const isClientHello = (data: unknown): data is ClientHello => typeof (data as ClientHello | null)?.webAgentsClient === "string";
export const isWorkerHello = (data: unknown): data is WorkerHello => typeof (data as WorkerHello | null)?.webAgentsWorker === "string";
