import type { ChatCompletionChunk, InitProgressReport, MLCEngineInterface } from "@mlc-ai/web-llm";
import { EngineError, toEngineError } from "./engine-error.js";
import type { ModelEngine } from "./model-engine.js";
import type { CacheStatus, DownloadProgress, GenerateRequest, LoadProgress, ModelSource, RawEngineEvent } from "./protocol.js";
import { modelFormat } from "../models/model-formats.js";
import { webLlmToolConstraint } from "./web-llm-tool-constraint.js";

type WebLlm = typeof import("@mlc-ai/web-llm");

/** Options for {@link WebLlmEngine}. */
export interface WebLlmEngineOptions {
  /** How web-llm is loaded (default a dynamic import, so it loads only for a web-llm model). */
  importWebLlm?: () => Promise<Pick<WebLlm, "MLCEngine" | "hasModelInCache" | "deleteModelAllInfoInCache">>;
  /** The MLC engine (default `new MLCEngine()`); tests pass a double of `MLCEngineInterface`. */
  createEngine?: () => MLCEngineInterface;
  /** Where a tool the constraint holds to syntax only is reported, once per line (default `console.warn`). */
  warn?: (line: string) => void;
}

const totalBytesOf = (model: ModelSource) => model.files.reduce((sum, file) => sum + (file.bytes ?? 0), 0);

/**
 * The web-llm engine: MLC-compiled models on WebGPU (no CPU path). web-llm
 * fetches and caches its own files, so this engine also answers
 * `cacheStatus`, `download` and `deleteModel`; its init progress (a 0..1
 * fraction and a text) is mapped to our progress. `model.repo` is the MLC
 * model id. Tools are rendered in the model's format into the prompt, each
 * call is held to the format's grammar by web-llm's own xgrammar
 * (`webLlmToolConstraint`), and the call text is read by the engine host as
 * for transformers.js.
 */
export class WebLlmEngine implements ModelEngine {
  private readonly options: WebLlmEngineOptions;
  private library?: Promise<Pick<WebLlm, "MLCEngine" | "hasModelInCache" | "deleteModelAllInfoInCache">>;
  private engine?: MLCEngineInterface;
  private loadedId?: string;
  private progressListener: (report: InitProgressReport) => void = () => {};
  private readonly warned = new Set<string>();

  constructor(options: WebLlmEngineOptions = {}) {
    this.options = options;
  }

  private webLlm() {
    this.library ??= (this.options.importWebLlm ?? (() => import("@mlc-ai/web-llm")))();
    return this.library;
  }

  private async mlc(): Promise<MLCEngineInterface> {
    if (!this.engine) {
      const library = await this.webLlm();
      this.engine = this.options.createEngine ? this.options.createEngine() : new library.MLCEngine();
      this.engine.setInitProgressCallback((report) => this.progressListener(report));
    }
    return this.engine;
  }

  private async reload(model: ModelSource, onReport: (report: InitProgressReport) => void, signal?: AbortSignal): Promise<void> {
    if (model.engine !== "web-llm") throw new EngineError({ code: "load_failed", message: `The web-llm engine cannot load a ${model.engine} model (${model.key}).` });
    if (model.device !== "webgpu") throw new EngineError({ code: "unsupported_device", message: "web-llm runs only on WebGPU." });
    const engine = await this.mlc();
    if (this.loadedId === model.repo) return;
    this.progressListener = onReport;
    // web-llm has no cancel for a download; unloading stops it between files.
    const stop = () => void engine.unload().catch(() => {});
    signal?.addEventListener("abort", stop, { once: true });
    try {
      await engine.reload(model.repo);
      signal?.throwIfAborted();
      this.loadedId = model.repo;
    } catch (error) {
      this.loadedId = undefined;
      if (signal?.aborted) throw new EngineError({ code: "aborted", message: "The download was cancelled." }, { cause: error });
      throw toEngineError(error, "load_failed");
    } finally {
      signal?.removeEventListener("abort", stop);
      this.progressListener = () => {};
    }
  }

  async cacheStatus(model: ModelSource): Promise<CacheStatus> {
    const cached = await (await this.webLlm()).hasModelInCache(model.repo);
    return cached ? { cached, bytes: totalBytesOf(model) } : { cached };
  }

  /** Fetches (and, web-llm's way, loads) the model; progress in bytes when the catalog knows the size. */
  async download(model: ModelSource, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<void> {
    const totalBytes = totalBytesOf(model) || 1;
    await this.reload(model, (report) => onProgress({ loadedBytes: Math.round(report.progress * totalBytes), totalBytes, file: report.text }), signal);
  }

  async load(model: ModelSource, onProgress: (progress: LoadProgress) => void = () => {}): Promise<void> {
    await this.reload(model, (report) => onProgress({ progress: report.progress }));
    onProgress({ progress: 1 });
  }

  async deleteModel(model: ModelSource): Promise<void> {
    if (this.loadedId === model.repo) {
      await this.engine?.unload();
      this.loadedId = undefined;
    }
    await (await this.webLlm()).deleteModelAllInfoInCache(model.repo);
  }

  async generate(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      onEvent({ type: "finish", reason: "aborted" });
      return;
    }
    await this.load(request.model);
    const engine = await this.mlc();
    const constraint = await webLlmToolConstraint(request);
    for (const line of constraint.warnings) {
      if (this.warned.has(line)) continue;
      this.warned.add(line);
      (this.options.warn ?? console.warn)(line);
    }
    const interrupt = () => engine.interruptGenerate();
    signal.addEventListener("abort", interrupt, { once: true });
    try {
      const chunks = await engine.chat.completions.create({
        // web-llm's tools API takes Hermes models only: the model's format renders the tools, past
        // calls and results itself, and the host reads the calls out of the text.
        messages: modelFormat(request.model.format).plainMessages(request.messages, request.tools),
        stream: true,
        stream_options: { include_usage: true },
        ...(request.maxNewTokens === undefined ? {} : { max_tokens: request.maxNewTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        extra_body: { enable_thinking: request.enableThinking ?? false },
        ...(constraint.response_format && { response_format: constraint.response_format }),
        ...(constraint.logit_bias && { logit_bias: constraint.logit_bias }),
      });
      let finish: string | null | undefined;
      for await (const chunk of chunks as AsyncIterable<ChatCompletionChunk>) {
        const choice = chunk.choices[0];
        if (choice?.delta.content) onEvent({ type: "text", text: choice.delta.content });
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) {
          const extra = chunk.usage.extra as Partial<{ time_to_first_token_s: number; decode_tokens_per_s: number }> | undefined;
          onEvent({
            type: "usage",
            usage: {
              promptTokens: chunk.usage.prompt_tokens,
              cachedPromptTokens: 0,
              outputTokens: chunk.usage.completion_tokens,
              timeToFirstTokenMs: Math.round((extra?.time_to_first_token_s ?? 0) * 1000),
              decodeTokensPerSecond: extra?.decode_tokens_per_s ?? 0,
            },
          });
        }
      }
      onEvent({ type: "finish", reason: signal.aborted || finish === "abort" ? "aborted" : finish === "length" ? "length" : "stop" });
    } catch (error) {
      if (signal.aborted) {
        onEvent({ type: "finish", reason: "aborted" });
        return;
      }
      throw toEngineError(error, "generation_failed");
    } finally {
      signal.removeEventListener("abort", interrupt);
    }
  }
}
