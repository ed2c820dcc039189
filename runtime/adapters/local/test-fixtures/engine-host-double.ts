import { readWithFormat, stepPrompt } from "../../../../worker/step-format.js";
import type {
  CacheStatus,
  DeviceCapabilities,
  DownloadProgress,
  EngineErrorCode,
  EngineEvent,
  EngineHost,
  GenerateRequest,
  GenerationUsage,
  LoadProgress,
  ModelSource,
  StepRequest,
} from "../../../../worker/protocol.js";

/** An error as the worker client rebuilds it: an `Error` with the boundary's `code`. */
export function engineError(code: EngineErrorCode, message: string): Error & { code: EngineErrorCode } {
  return Object.assign(new Error(message), { code });
}

/** What one generation of the double does. */
export interface ScriptedGeneration {
  /** Text chunks, streamed one per macrotask. */
  chunks?: string[];
  /** After the chunks, wait until `cancel(id)` (then end `aborted`). */
  hang?: boolean;
  /** Reject with this after the chunks. */
  error?: Error;
  /** Reported after the chunks, before the finish, as an engine reports it. */
  usage?: GenerationUsage;
}

export interface EngineHostDoubleOptions {
  capabilities?: Partial<DeviceCapabilities>;
  /** Source keys already on this device. */
  cached?: string[];
  /** What each generation emits. Default: {@link toolThenAnswer}. */
  script?: (request: GenerateRequest, index: number) => ScriptedGeneration;
  /** Progress events per download (default 4). */
  downloadSteps?: number;
  /** Hang the download after this many progress events until cancelled. */
  hangDownloadAfter?: number;
  /** Reject `probe` with this. */
  probeError?: Error;
  /** Reject `load` with this. */
  loadError?: Error;
}

export const WEBGPU_F16: DeviceCapabilities = { webgpu: true, fallbackAdapter: false, shaderF16: true, cores: 8, crossOriginIsolated: false };

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The last template message is a tool result. */
export const afterToolResult = (request: GenerateRequest) => request.messages.at(-1)?.role === "tool";

/** A `<tool_call>` for the first request of a turn, an answer once the last message is a tool result. */
export function toolThenAnswer(call = '{"name": "add_to_cart", "arguments": {"sku": "socks"}}', answer = "Added socks to your cart.") {
  return (request: GenerateRequest): ScriptedGeneration =>
    afterToolResult(request) ? { chunks: answer.match(/.{1,6}/gs) ?? [] } : { chunks: ["<tool", `_call>\n${call.slice(0, 10)}`, `${call.slice(10)}\n</tool_call>`] };
}

/**
 * A scripted double of the engine: no worker, no model. It records every
 * call, streams scripted text, reports download and load progress, and ends
 * a download or generation `aborted` when `cancel(id)` names it. The real
 * engine is tested by the worker's own tests, and end to end in a browser.
 */
export class EngineHostDouble implements EngineHost {
  readonly calls: { method: keyof EngineHost; arg?: unknown }[] = [];
  readonly requests: GenerateRequest[] = [];
  readonly cancelled: string[] = [];
  readonly cachedKeys: Set<string>;
  #cancelWaiters = new Map<string, () => void>();

  constructor(readonly options: EngineHostDoubleOptions = {}) {
    this.cachedKeys = new Set(options.cached);
  }

  count(method: keyof EngineHost): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  #cancelledSignal(id: string): Promise<void> {
    if (this.cancelled.includes(id)) return Promise.resolve();
    return new Promise((resolve) => this.#cancelWaiters.set(id, resolve));
  }

  async probe(): Promise<DeviceCapabilities> {
    this.calls.push({ method: "probe" });
    if (this.options.probeError) throw this.options.probeError;
    return { ...WEBGPU_F16, ...this.options.capabilities };
  }

  async cacheStatus(model: ModelSource): Promise<CacheStatus> {
    this.calls.push({ method: "cacheStatus", arg: model });
    return { cached: this.cachedKeys.has(model.key) };
  }

  async download(id: string, model: ModelSource, onProgress: (progress: DownloadProgress) => void): Promise<void> {
    this.calls.push({ method: "download", arg: { id, model } });
    const total = model.files.reduce((sum, file) => sum + (file.bytes ?? 0), 0) || 1000;
    const steps = this.options.downloadSteps ?? 4;
    for (let step = 1; step <= steps; step++) {
      if (this.options.hangDownloadAfter !== undefined && step > this.options.hangDownloadAfter) {
        await this.#cancelledSignal(id);
      }
      await tick();
      if (this.cancelled.includes(id)) throw engineError("aborted", "The download was cancelled.");
      onProgress({ loadedBytes: (total * step) / steps, totalBytes: total });
    }
    this.cachedKeys.add(model.key);
  }

  async load(model: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<void> {
    this.calls.push({ method: "load", arg: model });
    if (this.options.loadError) throw this.options.loadError;
    if (!this.cachedKeys.has(model.key)) throw engineError("not_cached", `${model.key} is not on this device.`);
    for (const progress of [0.5, 1]) {
      await tick();
      onProgress({ progress });
    }
  }

  async generate(step: StepRequest, onHostEvent: (event: EngineEvent) => void): Promise<void> {
    // The prompt as the worker's host makes it, so scripts and tests read the template messages the engine would.
    const request = stepPrompt(step);
    this.calls.push({ method: "generate", arg: request });
    // The scripted chunks are the model's raw text: read with the model's format, as the worker's host does.
    const onEvent = readWithFormat(request, onHostEvent);
    const index = this.requests.push(structuredClone(request)) - 1;
    const script = (this.options.script ?? toolThenAnswer())(request, index);
    for (const text of script.chunks ?? []) {
      await tick();
      if (this.cancelled.includes(request.id)) return onEvent({ type: "finish", reason: "aborted" });
      onEvent({ type: "text", text });
    }
    if (script.hang) {
      await this.#cancelledSignal(request.id);
      return onEvent({ type: "finish", reason: "aborted" });
    }
    await tick();
    if (script.error) throw script.error;
    if (script.usage) onEvent({ type: "usage", usage: script.usage });
    onEvent({ type: "finish", reason: "stop" });
  }

  async cancel(id: string): Promise<void> {
    this.calls.push({ method: "cancel", arg: id });
    this.cancelled.push(id);
    this.#cancelWaiters.get(id)?.();
  }

  async deleteModel(model: ModelSource): Promise<void> {
    this.calls.push({ method: "deleteModel", arg: model });
    this.cachedKeys.delete(model.key);
  }
}
