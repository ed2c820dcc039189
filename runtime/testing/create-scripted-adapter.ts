import { toolErrorPart } from "../session/tool-error-part.js";
import type { AdapterStatus, AgentAdapter, AgentRunRequest } from "../session/agent-adapter.js";
import type { AgentMessage } from "../session/agent-message.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import type { ToolDescriptor } from "../session/tool-descriptor.js";
import type { ToolOutput } from "../core/tool-output.js";

/** One scripted run: the parts to replay, or a function of the request that returns them. */
export type ScriptedRun = readonly AgentStreamPart[] | ((request: AgentRunRequest) => readonly AgentStreamPart[]);

/** What `createScriptedAdapter` takes. */
export interface ScriptedAdapterOptions {
  /** One entry per `run()` call, in order. A run past the last one ends in an `error` part. */
  runs: readonly ScriptedRun[];
  /** Default `"scripted"`. */
  id?: string;
  /** Default `"Scripted"`. */
  label?: string;
  /** The starting status. Default ready. */
  status?: AdapterStatus;
  /** Milliseconds to wait before each part, to test streaming and Stop. Default 0. */
  delay?: number;
}

/** What a scripted adapter saw of one run. */
export interface RecordedRequest {
  /** A copy of `req.messages`. */
  messages: AgentMessage[];
  /** `req.tools` when the run started. */
  tools: ToolDescriptor[];
  /** `req.agent?.id`. */
  agent: string | undefined;
  /** What each `req.callTool` resolved to, in order. */
  outputs: ToolOutput[];
  /**
   * How the run ended, once it has: `"finished"` (its script played out, or
   * there was none), `"aborted"` (its signal aborted), `"closed"` (the caller
   * stopped reading). Absent while it runs: after it is set, the run yields
   * nothing more.
   */
  ended?: "finished" | "aborted" | "closed";
}

/** A scripted adapter, with what it recorded. */
export interface ScriptedAdapter extends AgentAdapter {
  status(): AdapterStatus;
  subscribe(listener: () => void): () => void;
  /** One entry per run, in order. */
  readonly requests: RecordedRequest[];
  /** Change the status and tell subscribers. */
  setStatus(status: AdapterStatus): void;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });

/**
 * An adapter with no model that replays given stream parts, one script per
 * run, and records every request: for your tests and ours. A `tool-call`
 * part runs the tool through `req.callTool` and yields its `tool-result` or
 * `tool-error`, unless the script itself gives the result as the next part.
 * When `req.signal` aborts, the run ends with `finish` `"aborted"`.
 */
export function createScriptedAdapter(options: ScriptedAdapterOptions): ScriptedAdapter {
  if (!options || !Array.isArray(options.runs)) {
    throw new TypeError("createScriptedAdapter needs { runs }: one array of stream parts per run.");
  }
  const listeners = new Set<() => void>();
  const requests: RecordedRequest[] = [];
  let status: AdapterStatus = options.status ?? { state: "ready" };
  const delay = options.delay ?? 0;

  async function* run(request: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
    const index = requests.length;
    const recorded: RecordedRequest = {
      messages: structuredClone(request.messages),
      tools: request.tools,
      agent: request.agent?.id,
      outputs: [],
    };
    requests.push(recorded);
    let ended: RecordedRequest["ended"] = "closed";
    try {
      yield* play(request, index, recorded, (how) => (ended = how));
    } finally {
      recorded.ended = ended;
    }
  }

  async function* play(request: AgentRunRequest, index: number, recorded: RecordedRequest, end: (how: "finished" | "aborted") => void): AsyncGenerator<AgentStreamPart> {
    const script = options.runs[index];
    if (!script) {
      end("finished");
      yield { type: "error", error: `The scripted adapter has no run ${index + 1} (it was given ${options.runs.length}).` };
      return;
    }
    const parts = typeof script === "function" ? script(request) : script;
    for (let position = 0; position < parts.length; position++) {
      await wait(delay, request.signal);
      if (request.signal.aborted) {
        end("aborted");
        yield { type: "finish", reason: "aborted" };
        return;
      }
      const part = parts[position]!;
      yield part;
      if (part.type !== "tool-call") continue;
      const next = parts[position + 1];
      if ((next?.type === "tool-result" || next?.type === "tool-error") && next.id === part.id) continue;
      const output = await request.callTool({ id: part.id, name: part.name, input: part.input });
      recorded.outputs.push(output);
      const text = output.content.find((block) => block.type === "text")?.text ?? "";
      yield output.isError ? toolErrorPart(part.id, text) : { type: "tool-result", id: part.id, output };
    }
    end("finished");
  }

  return {
    id: options.id ?? "scripted",
    label: options.label ?? "Scripted",
    requests,
    run,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setStatus(next) {
      status = next;
      for (const listener of [...listeners]) listener();
    },
  };
}
