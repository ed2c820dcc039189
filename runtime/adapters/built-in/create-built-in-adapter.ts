import { isRunErrorCode } from "../../errors/error-codes.js";
import { WebAgentsError } from "../../errors/web-agents-error.js";
import type { AdapterStatus, AgentAdapter, AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { abortError, isAbortError } from "../abortable.js";
import { SharedPreparation } from "../shared-preparation.js";
import { readBuiltInAdapterOptions, type BuiltInAdapterOptions } from "./built-in-adapter-options.js";
import { ConversationSessions } from "./conversation-sessions.js";
import { describeBuiltInError } from "./describe-built-in-error.js";
import { pagePromptApi, type PromptApi, type PromptApiCoreOptions, type PromptApiSession } from "./prompt-api.js";
import type { HeldTool } from "./response-constraint.js";

/** The built-in adapter: `AgentAdapter` with `status`, `subscribe` and `prepare`. */
export type BuiltInAdapter = AgentAdapter & Required<Pick<AgentAdapter, "status" | "subscribe" | "prepare">>;

const NO_API =
  "This browser has no built-in model for web pages (the Prompt API: desktop Chrome 148 and later, in windows, not in Web Workers).";
const DEVICE = "This device does not qualify for the browser's built-in model (Chrome asks for desktop, 22 GB free disk, and a GPU with over 4 GB or 16 GB of memory).";
const NOTE = "Your browser downloads its built-in model once, for every site that uses it: about 4 GB, with 22 GB free on this device (Chrome's figures).";
/** "French" for "fr", in English like the adapter's other sentences; the tag itself where the engine has no names. */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

const CHECKING: AdapterStatus = { state: "loading" };
const READY: AdapterStatus = { state: "ready" };

/**
 * An adapter on the model the browser itself ships (Chrome's Prompt API,
 * `LanguageModel`): no download of the site's own, no worker; the tool loop
 * runs on the page, each step a constrained prompt (tool calls valid by
 * construction, see response-constraint.ts).
 *
 * Status: the first `status()` asks `LanguageModel.availability()` and
 * reports `loading` meanwhile; then `unavailable` (no Prompt API, a language
 * it does not support, or a device that does not qualify, each said),
 * `needs-download` (the browser's model is downloadable: the card says the
 * browser downloads it once for every site) -> `prepare()` (the browser
 * asks for sticky user activation: the person has clicked or typed on the
 * page at some point, the Download button's click included; a click is not
 * used up by it) -> `downloading` (0..1, the browser's
 * `downloadprogress`) -> `loading` (the model starting) -> `ready`. A model
 * the browser already has starts without any activation (see `catalog.autoLoad`); one
 * another site is downloading is followed. `error` when setting up failed
 * (`prepare()` again retries).
 */
export function createBuiltInAdapter(given: BuiltInAdapterOptions = {}): BuiltInAdapter {
  const options = readBuiltInAdapterOptions(given);
  const listeners = new Set<() => void>();
  const languages = options.languages ?? ["en"];
  const autoLoad = options.catalog?.autoLoad ?? true;
  const warned = new Set<string>();
  let status: AdapterStatus = CHECKING;
  let api: PromptApi | undefined;
  let checking: Promise<void> | undefined;
  const preparation = new SharedPreparation();
  /** The session that started the model; kept so the browser keeps it loaded. */
  let warm: PromptApiSession | undefined;

  const resolveApi = () => (options.languageModel === null ? undefined : (options.languageModel ?? pagePromptApi()));
  const coreOptions = (): PromptApiCoreOptions => {
    const { samplingMode, temperature, topK } = options.generation ?? {};
    const expected = [{ type: "text" as const, languages }];
    // The browser refuses the preset and the raw parameters together.
    const sampling = samplingMode ? { samplingMode } : { ...(temperature !== undefined && { temperature }), ...(topK !== undefined && { topK }) };
    return { expectedInputs: expected, expectedOutputs: expected, ...sampling };
  };
  const sessions = new ConversationSessions(() => api!, coreOptions);

  function set(next: AdapterStatus) {
    if (JSON.stringify(next) === JSON.stringify(status)) return;
    status = next;
    for (const listener of [...listeners]) listener();
  }

  async function unavailableReason(given: PromptApi): Promise<string> {
    // Unavailable with our languages but available in English: the languages are why. The probe
    // names its languages as every call does: Chrome warns on the console for a call that names
    // no output language ("No output language was specified…").
    if (languages.every((language) => language === "en")) return DEVICE;
    const english = [{ type: "text" as const, languages: ["en"] }];
    const probe = await given.availability({ expectedInputs: english, expectedOutputs: english }).catch(() => "unavailable" as const);
    if (probe === "unavailable") return DEVICE;
    const names = languages.map(languageName).join(", ");
    return `The browser's built-in model does not support ${names} here (Chrome's supports English, Japanese and Spanish).`;
  }

  function check(): Promise<void> {
    checking ??= (async () => {
      api = resolveApi();
      if (!api) return set({ state: "unavailable", reason: NO_API });
      let availability: Awaited<ReturnType<PromptApi["availability"]>>;
      try {
        availability = await api.availability(coreOptions());
      } catch {
        return set({ state: "unavailable", reason: DEVICE });
      }
      if (availability === "unavailable") return set({ state: "unavailable", reason: await unavailableReason(api) });
      if (availability === "downloadable") return set({ state: "needs-download", note: NOTE });
      // Downloading (another site started it) needs no activation to follow; available starts by itself unless told not to.
      if (availability === "downloading" || autoLoad) {
        set(availability === "downloading" ? { state: "downloading", progress: 0 } : { state: "loading", progress: 1, stage: "starting" });
        void prepare().catch(() => {});
        return;
      }
      set(READY);
    })();
    return checking;
  }

  async function startModel(signal: AbortSignal): Promise<void> {
    const given = api!;
    // prepare() (the Download button, or a retry) starts the download: the card becomes its progress at once.
    if (status.state === "needs-download") set({ state: "downloading", progress: 0 });
    else if (status.state === "error") set({ state: "loading", progress: 1, stage: "starting" });
    try {
      const session = await given.create({
        ...coreOptions(),
        signal,
        monitor(monitor) {
          monitor.addEventListener("downloadprogress", (event) => {
            const loaded = (event as Event & { loaded?: number }).loaded ?? 0;
            if (signal.aborted) return;
            // The browser fires 0 and 1 even when nothing downloads: only a step between them is a download.
            if (loaded < 1 && (loaded > 0 || status.state !== "loading")) set({ state: "downloading", progress: loaded });
            else if (loaded >= 1) set({ state: "loading", progress: 1, stage: "starting" });
          });
        },
      });
      warm?.destroy();
      warm = session;
      set(READY);
    } catch (error) {
      if (signal.aborted || isAbortError(error)) {
        set({ state: "needs-download", note: NOTE });
        throw abortError();
      }
      const described = describeBuiltInError(error, "setup");
      if (described.code === "not_cached") set({ state: "needs-download", note: NOTE });
      else if (described.code === "unsupported_device") set({ state: "unavailable", reason: described.error });
      else set({ state: "error", error: described.error, code: described.code });
      throw new WebAgentsError(described.code, described.error);
    }
  }

  async function prepare(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortError();
    await check();
    if (status.state === "ready") return;
    if (status.state === "unavailable") throw new WebAgentsError("unsupported_device", status.reason);
    // One model for the adapter: every preparation shares one key.
    await preparation.join("built-in", startModel, signal);
  }

  function onHeld(held: readonly HeldTool[]) {
    for (const { tool, keyword } of held) {
      const key = `${tool}\u0000${keyword}`;
      if (warned.has(key)) continue;
      warned.add(key);
      console.warn(
        `[web-agents] The built-in model's calls of ${tool} are held to an object only: the browser cannot be sent its schema's "${keyword}". Each call is still checked against the full schema.`,
      );
    }
  }

  async function* run(req: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
    await check();
    if (status.state === "unavailable") {
      yield { type: "error", error: status.reason, code: "unsupported_device" };
      return;
    }
    if (status.state === "needs-download") {
      yield { type: "error", error: "Download the browser's built-in model first: press Download above.", code: "not_cached" };
      return;
    }
    if (status.state !== "ready") {
      try {
        await prepare(req.signal);
      } catch (error) {
        if (req.signal.aborted || isAbortError(error)) yield { type: "finish", reason: "aborted" };
        else yield { type: "error", ...(WebAgentsError.isInstance(error) && isRunErrorCode(error.code) ? { error: error.message, code: error.code } : describeBuiltInError(error, "setup")) };
        return;
      }
    }
    // The tool loop loads with the first reply, not with the page.
    const { runBuiltInSteps } = await import("./run-built-in-steps.js");
    yield* runBuiltInSteps(req, {
      sessions,
      conversationId: `built-in:${req.messages[0]?.id ?? crypto.randomUUID()}`,
      ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
      onHeld,
    });
  }

  return {
    id: options.id ?? "built-in",
    label: options.label ?? "Built into this browser",
    status() {
      void check();
      return status;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    prepare,
    run,
  };
}
