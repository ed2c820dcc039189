import { DoubleSession, SESSION_TOKEN, type DoubleCall, type DoubleMessage, type DoubleModel } from "./double-session.js";
import type { DoubleAvailability, LanguageModelDoubleOptions } from "./language-model-double-options.js";

export type { DoubleCall, DoubleMessage, DoublePromptRequest } from "./double-session.js";
export { DoubleSession } from "./double-session.js";
export type { DoubleAvailability, LanguageModelDoubleOptions } from "./language-model-double-options.js";

/** What a test drives and reads the double with. */
export interface LanguageModelDoubleController {
  readonly availability: DoubleAvailability;
  setAvailability(availability: DoubleAvailability): void;
  /** The manual download's progress, 0 to 1 exclusive: a `downloadprogress` to every waiting `create()`. */
  progress(loaded: number): void;
  /** The manual download finishes (`loaded` 1); the model is on the device. */
  completeDownload(): void;
  /** The manual load finishes: the waiting `create()` calls resolve. */
  completeLoad(): void;
  /** The download fails: waiting `create()` calls reject with `NetworkError`. */
  failDownload(): void;
  /** Every `create()` call's options, in order. */
  readonly creates: readonly Record<string, unknown>[];
  /** How many `clone()` calls made a session. */
  readonly clones: number;
  /** Every prompt and append, in order. */
  readonly calls: readonly DoubleCall[];
  /** The sessions not destroyed. */
  readonly sessions: ReadonlySet<DoubleSession>;
}

/** The double: `LanguageModel` as the page sees it, and its controller. */
export interface LanguageModelDouble {
  LanguageModel: typeof DoubleSession & {
    availability(options?: Record<string, unknown>): Promise<DoubleAvailability>;
    create(options?: Record<string, unknown>): Promise<DoubleSession>;
    params(): Promise<null>;
  };
  controller: LanguageModelDoubleController;
}

interface Waiting {
  resolveDownload: () => void;
  rejectDownload: (error: unknown) => void;
  onProgress: (loaded: number) => void;
}

const DEFAULT_LANGUAGES = ["en", "ja", "es"];

/** A task, not a microtask: chunks and download events arrive as a browser's would, with the event loop turning between them. */
function nextTask(): Promise<void> {
  if (typeof MessageChannel === "undefined") return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      channel.port2.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

function progressEvent(loaded: number): Event {
  if (typeof ProgressEvent === "function") return new ProgressEvent("downloadprogress", { loaded, total: 1, lengthComputable: true });
  // Node has no ProgressEvent: an Event with its fields.
  return Object.assign(new Event("downloadprogress"), { loaded, total: 1, lengthComputable: true });
}

function languagesOf(options: Record<string, unknown> | undefined): string[] {
  const lists = [options?.expectedInputs, options?.expectedOutputs].filter(Array.isArray) as { languages?: unknown }[][];
  return lists.flatMap((list) => list.flatMap((expected) => (Array.isArray(expected.languages) ? (expected.languages as string[]) : [])));
}

/**
 * A `LanguageModel` (Chrome's Prompt API) written from the explainer's IDL,
 * for tests in Node and in headless Chromium, where no built-in model runs:
 *
 * - `availability(options)`: the state set (`unavailable`, `downloadable`,
 *   `downloading`, `available`), `unavailable` for a language it lacks;
 * - `create(options)`: a `downloadable` model needs transient user
 *   activation (`NotAllowedError` without), then downloads, with
 *   `downloadprogress` events (`loaded` 0..1, at least 0 and 1 even with
 *   nothing to download) on the `monitor`; `signal` aborts it;
 *   `initialPrompts` are kept through every overflow; a language it lacks
 *   is `NotSupportedError`;
 * - sessions (double-session.ts): queued prompts, streamed chunks, `append`,
 *   `clone`, `measureContextUsage`, `contextUsage` / `contextWindow`,
 *   overflow (`contextoverflow`, or `QuotaExceededError`), abort, `destroy`,
 *   and `responseConstraint` enforced by validating the scripted reply
 *   against the schema with @cfworker/json-schema (enforce-constraint.ts).
 */
export function createLanguageModelDouble(options: LanguageModelDoubleOptions = {}): LanguageModelDouble {
  let availability: DoubleAvailability = options.availability ?? "available";
  const languages = new Set((options.languages ?? DEFAULT_LANGUAGES).map((tag) => tag.split("-")[0]!.toLowerCase()));
  const manual = options.download === "manual";
  const userActivation =
    // Sticky activation, as the Prompt API asks: any earlier click or key press on the page, not used up.
    options.userActivation ?? (() => (globalThis.navigator as { userActivation?: { hasBeenActive?: boolean } } | undefined)?.userActivation?.hasBeenActive === true);
  const creates: Record<string, unknown>[] = [];
  let clones = 0;
  let waiting = new Set<Waiting>();
  let loadGate: { promise: Promise<void>; open: () => void } | undefined;
  let loaded = 0;
  let driving = false;

  const model: DoubleModel = {
    contextWindow: options.contextWindow ?? 9216,
    countTokens: options.countTokens ?? ((text) => Math.ceil(text.length / 4)),
    reply:
      options.respond ??
      ((request) => {
        const reply = options.replies?.[request.index];
        if (reply === undefined) throw new DOMException(`The double has no scripted reply ${request.index}.`, "OperationError");
        return reply;
      }),
    chunkSize: options.chunkSize ?? 6,
    unsupportedKeywords: options.unsupportedKeywords ?? [],
    nextChunk: options.nextChunk ?? nextTask,
    calls: [],
    sessions: new Set(),
  };

  const supported = (options: Record<string, unknown> | undefined) => languagesOf(options).every((tag) => languages.has(tag.split("-")[0]!.toLowerCase()));

  function finishDownload(error?: unknown) {
    const current = waiting;
    waiting = new Set();
    for (const entry of current) (error ? entry.rejectDownload(error) : entry.resolveDownload());
  }

  /** Waits until the model is on the device, reporting progress; starts the download when none runs. */
  function download(onProgress: (loaded: number) => void): Promise<void> {
    const starting = availability === "downloadable";
    availability = "downloading";
    if (starting) loaded = 0;
    const done = new Promise<void>((resolve, reject) => waiting.add({ resolveDownload: resolve, rejectDownload: reject, onProgress }));
    if (!manual && !driving) {
      driving = true;
      void (async () => {
        for (const step of [0.25, 0.5, 0.75]) {
          await nextTask();
          controller.progress(step);
        }
        await nextTask();
        driving = false;
        controller.completeDownload();
      })();
    }
    return done;
  }

  const controller: LanguageModelDoubleController = {
    get availability() {
      return availability;
    },
    setAvailability(next) {
      availability = next;
    },
    progress(next) {
      loaded = next;
      for (const entry of waiting) entry.onProgress(next);
    },
    completeDownload() {
      loaded = 1;
      availability = "available";
      for (const entry of waiting) entry.onProgress(1);
      if (manual) {
        let open!: () => void;
        loadGate = { promise: new Promise<void>((resolve) => (open = resolve)), open };
      }
      finishDownload();
    },
    completeLoad() {
      loadGate?.open();
      loadGate = undefined;
    },
    failDownload() {
      availability = "downloadable";
      finishDownload(new DOMException("The model could not be downloaded.", "NetworkError"));
    },
    get creates() {
      return creates;
    },
    get clones() {
      return clones;
    },
    get calls() {
      return model.calls;
    },
    get sessions() {
      return model.sessions;
    },
  };

  class LanguageModel extends DoubleSession {
    static async availability(given?: Record<string, unknown>): Promise<DoubleAvailability> {
      if (!supported(given)) return "unavailable";
      return availability;
    }

    static async create(given: Record<string, unknown> = {}): Promise<DoubleSession> {
      creates.push(given);
      const signal = given.signal as AbortSignal | undefined;
      if (signal?.aborted) throw signal.reason;
      if (given.samplingMode !== undefined && (given.temperature !== undefined || given.topK !== undefined)) {
        throw new TypeError("samplingMode and temperature / topK cannot be used together.");
      }
      if (!supported(given) || availability === "unavailable") throw new DOMException("The requested options are not supported.", "NotSupportedError");
      // The explainer's user-activation rule for a model the browser has yet to download.
      if (availability === "downloadable" && !userActivation()) throw new DOMException("A user activation is required to download the model.", "NotAllowedError");
      const monitor = new EventTarget() as EventTarget & { ondownloadprogress: ((event: Event) => unknown) | null };
      monitor.ondownloadprogress = null;
      (given.monitor as ((monitor: EventTarget) => void) | undefined)?.(monitor);
      let stopped = false;
      const report = (value: number) => {
        if (stopped) return;
        const event = progressEvent(value);
        monitor.dispatchEvent(event);
        monitor.ondownloadprogress?.(event);
      };
      const aborted = new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));
      aborted.catch(() => {});
      // Joined at once, so a download that fails or progresses right after the call is seen.
      // Progress before the first event (0) is remembered in `loaded` and reported right after it.
      let zeroSent = false;
      const downloaded = availability === "available" ? undefined : download((value) => zeroSent && value > 0 && report(value));
      downloaded?.catch(() => {});
      try {
        await Promise.resolve();
        report(0);
        zeroSent = true;
        if (downloaded) {
          if (loaded > 0 && loaded < 1) report(loaded);
          await Promise.race([downloaded, aborted]);
          if (loadGate) await Promise.race([loadGate.promise, aborted]);
        } else {
          await nextTask();
          report(1);
        }
      } finally {
        stopped = true;
      }
      const initialPrompts = (given.initialPrompts as DoubleMessage[] | undefined) ?? [];
      initialPrompts.forEach((message, index) => {
        if (message.role === "system" && index !== 0) throw new TypeError("A system message must come first.");
      });
      const entries = DoubleSession.initialEntries(model, initialPrompts);
      const usage = entries.reduce((total, entry) => total + entry.tokens, 0);
      if (usage > model.contextWindow) throw Object.assign(new DOMException("The initial prompts do not fit.", "QuotaExceededError"), { requested: usage, quota: model.contextWindow });
      return new LanguageModel(SESSION_TOKEN, model, entries, 0, typeof given.samplingMode === "string" ? given.samplingMode : "balanced");
    }

    /** Extension contexts only: `null` on a web page, as the explainer says where raw parameters are ignored. */
    static async params(): Promise<null> {
      return null;
    }

    override async clone(cloneOptions: { signal?: AbortSignal } = {}): Promise<this> {
      const session = await super.clone(cloneOptions);
      clones++;
      return session;
    }
  }

  return { LanguageModel, controller };
}
