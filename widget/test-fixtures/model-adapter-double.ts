import type { AdapterStatus, ModelChoice } from "../../runtime/session/agent-adapter.js";
import type { AgentStreamPart } from "../../runtime/session/agent-stream-part.js";
import { createScriptedAdapter, type ScriptedAdapter } from "../../runtime/testing/create-scripted-adapter.js";

/**
 * A test double of an on-device adapter (the AgentAdapter contract's
 * `models`, `selectModel` and `prepare`), since createLocalAdapter is built
 * elsewhere: a scripted adapter whose download the test drives by hand.
 */
export interface ModelAdapterDouble extends ScriptedAdapter {
  models(): readonly ModelChoice[];
  selectModel(id: string): Promise<void>;
  prepare(signal?: AbortSignal): Promise<void>;
  /** Every id `selectModel` was called with. */
  readonly selected: string[];
  /** The signal of the last `prepare` call. */
  prepareSignal: AbortSignal | undefined;
  /** Report download progress (0 to 1). */
  progress(progress: number): void;
  /** Finish the download: the model loads from disk, then it is ready. */
  finish(): void;
  /** Make the next `selectModel` reject with this message. */
  failNextSelect(message: string): void;
}

const MB = 1_000_000;

/** The double's catalog: two models, the first recommended and selected. */
export const DOUBLE_MODELS: readonly ModelChoice[] = [
  { id: "small", label: "Qwen3 0.6B", brief: "Fast, for simple pages.", bytes: 400 * MB, recommended: true },
  { id: "large", label: "Qwen3 1.7B", brief: "Better at many-step tasks.", bytes: 1200 * MB },
];

/** Creates the double; `runs` as for createScriptedAdapter. Starts as `needs-download` for the small model. */
export function createModelAdapterDouble(
  runs: readonly (readonly AgentStreamPart[])[] = [],
  options: { id?: string; label?: string; note?: string } = {},
): ModelAdapterDouble {
  const catalog = DOUBLE_MODELS.map((model) => ({ ...model }));
  let selectedId = "small";
  const cached = new Set<string>();
  const needsDownload = (): AdapterStatus => {
    const model = catalog.find((candidate) => candidate.id === selectedId)!;
    return { state: "needs-download", bytes: model.bytes!, ...(options.note && { note: options.note }) };
  };
  const base = createScriptedAdapter({
    runs,
    id: options.id ?? "on-device",
    label: options.label ?? "On this device",
    status: needsDownload(),
  });
  let finishDownload: (() => void) | undefined;
  let nextSelectError: string | undefined;

  const double: ModelAdapterDouble = Object.assign(base, {
    selected: [] as string[],
    prepareSignal: undefined as AbortSignal | undefined,
    models: () => catalog.map((model) => ({ ...model, selected: model.id === selectedId, cached: cached.has(model.id) })),
    async selectModel(id: string) {
      double.selected.push(id);
      if (nextSelectError) {
        const message = nextSelectError;
        nextSelectError = undefined;
        throw new Error(message);
      }
      selectedId = id;
      base.setStatus(cached.has(id) ? { state: "ready" } : needsDownload());
    },
    prepare(signal?: AbortSignal) {
      double.prepareSignal = signal;
      base.setStatus({ state: "downloading", progress: 0 });
      return new Promise<void>((resolve, reject) => {
        finishDownload = () => {
          cached.add(selectedId);
          base.setStatus({ state: "loading", progress: 0.5 });
          base.setStatus({ state: "ready" });
          resolve();
        };
        signal?.addEventListener("abort", () => {
          base.setStatus(needsDownload());
          reject(signal.reason);
        });
      });
    },
    progress: (progress: number) => base.setStatus({ state: "downloading", progress }),
    finish: () => finishDownload?.(),
    failNextSelect(message: string) {
      nextSelectError = message;
    },
  });
  return double;
}
