import { isRunErrorCode, type RunErrorCode } from "../../errors/error-codes.js";
import type { AdapterStatus, AgentAdapter, AgentRunRequest, ModelChoice } from "../../session/agent-adapter.js";
import type { AgentMessage } from "../../session/agent-message.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { resumable } from "../../session/resumable.js";
import { RunTranscript } from "../run-transcript.js";
import { leadAdapter, statusOf } from "./best-status.js";
import { DEVICE_FAILURE_CODES, isDeviceFailure, switchNoticeText } from "./device-failure.js";

/** What `createFallbackAdapter` takes besides the adapters. Every field is optional. */
export interface FallbackAdapterOptions {
  /** Default `"fallback"`. */
  id?: string;
  /** Default: the adapters' labels joined with ", then " ("On this device, then Cloud"). */
  label?: string;
  /** The run error codes that move a turn to the next adapter. Default `DEVICE_FAILURE_CODES`. */
  failOverOn?: readonly RunErrorCode[];
}

/** The switch the person is told about: one line, until the next run starts. */
export interface FallbackNotice {
  /** `The on-device model stopped (its worker stopped); continuing with Cloud.` */
  text: string;
  /** The id of the adapter that failed. */
  from: string;
  /** The id of the adapter the turn continues on. */
  to: string;
  /** The failed run's error code. */
  code?: RunErrorCode;
}

/** A fallback adapter: an `AgentAdapter` over others, with the switch notice. */
export type FallbackAdapter = AgentAdapter &
  Required<Pick<AgentAdapter, "status" | "subscribe" | "prepare">> & {
    /** The adapters, in the order they are tried. */
    readonly adapters: readonly AgentAdapter[];
    /** The last switch in the current or last run; cleared when a run starts. Same object until it changes. */
    notice(): FallbackNotice | undefined;
  };

type ErrorPart = Extract<AgentStreamPart, { type: "error" }>;
const CANCELLED = "Error [cancelled]: The on-device model stopped before this call ran.";

function checkArguments(adapters: unknown, options: unknown): asserts adapters is readonly AgentAdapter[] {
  const usage = "createFallbackAdapter([local, cloud]) takes an array of adapters, tried in that order";
  if (!Array.isArray(adapters) || adapters.length === 0) throw new TypeError(`${usage}: pass at least one adapter.`);
  adapters.forEach((adapter: unknown, index) => {
    const value = adapter as Partial<AgentAdapter> | null;
    if (typeof value !== "object" || value === null || typeof value.run !== "function" || typeof value.id !== "string" || typeof value.label !== "string") {
      throw new TypeError(`${usage}: adapters[${index}] is not an adapter (an object with id, label and run).`);
    }
    if (adapters.indexOf(adapter) !== index) throw new TypeError(`${usage}: adapters[${index}] is listed twice; list each adapter once.`);
  });
  if (options !== undefined && (typeof options !== "object" || options === null)) throw new TypeError("createFallbackAdapter's options must be an object when given.");
  const failOverOn = (options as FallbackAdapterOptions | undefined)?.failOverOn;
  if (failOverOn !== undefined) {
    if (!Array.isArray(failOverOn)) throw new TypeError("failOverOn must be an array of run error codes, for example DEVICE_FAILURE_CODES.");
    const bad = failOverOn.find((code) => !isRunErrorCode(code));
    if (bad !== undefined) throw new TypeError(`failOverOn: ${JSON.stringify(bad)} is not a run error code (see RUN_ERROR_CODES).`);
  }
}

/**
 * One adapter over several, tried in order: typically
 * `createFallbackAdapter([local, cloud])`, the model on this device with your
 * `/api/chat` behind it.
 *
 * Status: the first adapter that is `ready`, else the best state in
 * `STATUS_ORDER` (`loading`, `downloading`, `needs-download`, `error`,
 * `unavailable`; the earlier adapter on a tie), as that adapter reports it.
 * `prepare()` prepares that adapter; `models()` and `selectModel()` are the
 * first adapter's that has them.
 *
 * A run starts on the first ready adapter (or the one the status shows).
 * When it ends in an `error` part whose code is a device failure
 * (`failOverOn`: a worker crash, a lost device, memory, a failed load), the
 * same turn continues on the next ready adapter with `resumable()` of what
 * was said so far: the finished tool calls and their results go with it, so
 * none runs twice. `notice()` then tells the switch in one line (the chat
 * shows it). The person's Stop, tool errors and every other error end the
 * run as they are.
 */
export function createFallbackAdapter(adapters: readonly AgentAdapter[], options: FallbackAdapterOptions = {}): FallbackAdapter {
  checkArguments(adapters, options);
  const list = [...adapters];
  const failOverOn = options.failOverOn ?? DEVICE_FAILURE_CODES;
  const listeners = new Set<() => void>();
  const chooser = list.find((adapter) => adapter.models);
  let notice: FallbackNotice | undefined;

  const setNotice = (next: FallbackNotice | undefined) => {
    if (next === notice) return;
    notice = next;
    for (const listener of [...listeners]) listener();
  };

  async function* run(req: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
    setNotice(undefined);
    let index = list.findIndex((adapter) => statusOf(adapter).state === "ready");
    if (index === -1) index = list.indexOf(leadAdapter(list).adapter);
    let messages: AgentMessage[] = req.messages;
    // What the run reads as its conversation: the session's (parts applied once, there), or without a
    // session a copy of our own. After a switch: the turn resumed, then what the next adapter adds.
    let conversation = req.conversation;
    let transcript = new RunTranscript({ messages, ...(conversation && { conversation }) });
    for (;;) {
      const adapter = list[index]!;
      const request: AgentRunRequest = {
        messages,
        // A getter, as the session's: the page's tools are read fresh before every model call.
        get tools() {
          return req.tools;
        },
        signal: req.signal,
        callTool: req.callTool,
        ...(req.agent && { agent: req.agent }),
        ...(conversation && { conversation }),
      };
      let failure: ErrorPart | undefined;
      for await (const part of adapter.run(request)) {
        if (part.type === "error" && !req.signal.aborted && isDeviceFailure(part, failOverOn)) {
          failure = part;
          break;
        }
        if (part.type === "tool-call") transcript.open.add(part.id);
        if (part.type === "tool-result" || part.type === "tool-error") transcript.open.delete(part.id);
        if (part.type !== "finish" && part.type !== "error") transcript.record(part);
        yield part;
      }
      if (!failure) return;
      const next = list.findIndex((candidate, at) => at > index && statusOf(candidate).state === "ready");
      if (next === -1) {
        yield* transcript.closeOpen(CANCELLED);
        yield failure;
        return;
      }
      // Calls the failed adapter left open never ran: close them, and leave them out of what the next one reads.
      yield* transcript.closeOpen(CANCELLED);
      const sofar = transcript.messages;
      messages = resumable(sofar);
      if (req.conversation) {
        const resumed = messages;
        conversation = () => [...resumed, ...req.conversation!().slice(sofar.length)];
      }
      transcript = new RunTranscript({ messages, ...(conversation && { conversation }) });
      const target = list[next]!;
      setNotice({ text: switchNoticeText(failure.code, target.label), from: adapter.id, to: target.id, ...(failure.code && { code: failure.code }) });
      index = next;
    }
  }

  const adapter: FallbackAdapter = {
    id: options.id ?? "fallback",
    label: options.label ?? list.map((each) => each.label).join(", then "),
    adapters: list,
    status: (): AdapterStatus => leadAdapter(list).status,
    subscribe(listener) {
      listeners.add(listener);
      const unsubscribes = list.map((each) => each.subscribe?.(listener));
      return () => {
        listeners.delete(listener);
        for (const unsubscribe of unsubscribes) unsubscribe?.();
      };
    },
    async prepare(signal) {
      await leadAdapter(list).adapter.prepare?.(signal);
    },
    notice: () => notice,
    run,
  };
  if (chooser?.models) {
    adapter.models = (): readonly ModelChoice[] => chooser.models!();
    if (chooser.selectModel) adapter.selectModel = (id) => chooser.selectModel!(id);
  }
  return adapter;
}
