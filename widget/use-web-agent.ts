import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { WebAgent, WebAgentResult, WebAgentStep } from "../runtime/agent/web-agent.js";
import { WebAgentsError } from "../runtime/core/web-agents-error.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentMessage } from "../runtime/session/agent-message.js";
import type { SessionError } from "../runtime/session/session-error.js";
import type { ConfirmTool, ConfirmToolsPolicy } from "../runtime/session/tool-policy.js";
import { isRunErrorCode } from "../runtime/errors/error-codes.js";
import { DEFAULT_STORAGE_KEY } from "../runtime/session/session-storage.js";
import { adapterChoiceKey, createAdapterChoiceStorage } from "./adapter-choice-storage.js";

/** What `useWebAgent` takes besides the agent. */
export interface UseWebAgentOptions {
  /**
   * What runs the model when the person has chosen none of `adapters`.
   * Default: the one shared `createCloudAdapter()`, as `agent.invoke`.
   */
  adapter?: AgentAdapter;
  /**
   * The adapters the page's chat offers (`<AgentChat adapters>`): each run
   * uses the one the person chose there, remembered by id under
   * `"<storageKey>:adapter"`, whether or not the chat was opened on this
   * page; `adapter` when none was chosen. Default: none (always `adapter`).
   */
  adapters?: readonly AgentAdapter[];
  /**
   * The chat's `storageKey`, where its adapter choice is read from (with
   * `adapters`). `false` reads none. Default `"web-agents:chat"`, as the chat's.
   */
  storageKey?: string | false;
  /** Which calls the tool policy holds, as `agent.invoke`'s. Default `"consequential"`. */
  confirmTools?: ConfirmToolsPolicy;
  /**
   * Answers a held call, as `agent.invoke`'s: `true` runs it; `false` or
   * `undefined` declines it (there is no chat to ask in). Read from the
   * latest render when the call is held. Default: not set (held calls are declined).
   */
  confirmTool?: ConfirmTool;
}

/** Where a `useWebAgent` run is. */
export type WebAgentRunStatus = "idle" | "running" | "done" | "error";

/** What `useWebAgent` returns: the last run, live, and how to start or stop one. */
export interface WebAgentRun {
  /**
   * `idle` before the first run and after `stop()`, `running` while one
   * runs, then `done` or `error`.
   */
  status: WebAgentRunStatus;
  /** Every tool call of the current or last run, in order, updated as each starts, parks and ends. */
  steps: WebAgentStep[];
  /** The agent's answer once `done`; `""` before. */
  text: string;
  /** The whole conversation once `done`; `[]` before. */
  messages: AgentMessage[];
  /** The failure once `error`: `{ message, code? }`. */
  error: SessionError | undefined;
  /**
   * Start a run on `text` (a run already going is aborted first). Resolves
   * to the result, or `undefined` when the run failed or was stopped: it
   * never rejects; read `error` instead.
   */
  invoke: (text: string) => Promise<WebAgentResult | undefined>;
  /** Abort the run: the model, the tool in flight and any sub-agent. Status goes back to `idle`. */
  stop: () => void;
  /**
   * Whether a tool call (by id) is one of this hook's runs: pass it to
   * `<AgentCursor follows={run.follows} />` so the cursor shows this run's
   * calls (and parks on the control a call waits for) with no chat open,
   * and not a chat's. Known from the moment the call starts. Stable.
   */
  follows: (callId: string) => boolean;
}

interface RunState {
  status: WebAgentRunStatus;
  steps: WebAgentStep[];
  text: string;
  messages: AgentMessage[];
  error: SessionError | undefined;
}

const IDLE: RunState = { status: "idle", steps: [], text: "", messages: [], error: undefined };
function toSessionError(error: unknown): SessionError {
  const message = error instanceof Error ? error.message : String(error);
  const code = WebAgentsError.isInstance(error) ? error.code : undefined;
  return isRunErrorCode(code) ? { message, code } : { message };
}

/** Replaces the step with `step.id`, or appends it. */
function withStep(steps: WebAgentStep[], step: WebAgentStep): WebAgentStep[] {
  const index = steps.findIndex((candidate) => candidate.id === step.id);
  if (index === -1) return [...steps, step];
  const next = steps.slice();
  next[index] = step;
  return next;
}

/**
 * The React form of `agent.invoke`: runs `agent` on one message at a time,
 * with no chat on the page, and keeps its live status and steps for a
 * progress UI. Never rejects (failures land in `error`). Unmounting aborts
 * the run.
 *
 * @example
 * const reorder = useWebAgent(shopper);
 * <button onClick={() => reorder.invoke("Reorder my last purchase.")}>Reorder</button>
 * <AgentCursor follows={reorder.follows} />
 * {reorder.steps.map((step) => <li key={step.id}>{toolTitle(step.tool)}: {describeToolState(step.state)}</li>)}
 */
export function useWebAgent(agent: WebAgent, options: UseWebAgentOptions = {}): WebAgentRun {
  const { adapter: fallback, adapters, storageKey = DEFAULT_STORAGE_KEY, confirmTools } = options;
  const choice = useMemo(() => createAdapterChoiceStorage(storageKey === false ? false : adapterChoiceKey(storageKey)), [storageKey]);
  // The latest render's confirmTool, without a new invoke per render.
  const confirmTool = useRef(options.confirmTool);
  confirmTool.current = options.confirmTool;
  const [state, setState] = useState<RunState>(IDLE);
  const controller = useRef<AbortController | undefined>(undefined);
  // The call ids of the runs, updated as each step arrives (before its tool runs), not on render.
  const callIds = useRef(new Set<string>());
  const follows = useCallback((callId: string) => callIds.current.has(callId), []);

  useEffect(
    () => () => {
      controller.current?.abort();
      controller.current = undefined;
    },
    [],
  );

  const invoke = useCallback(
    async (text: string): Promise<WebAgentResult | undefined> => {
      controller.current?.abort();
      // Read at each run: the person may have switched in the chat since the last render.
      const chosenId = adapters && choice.load();
      const adapter = adapters?.find((candidate) => candidate.id === chosenId) ?? fallback;
      const run = new AbortController();
      controller.current = run;
      const current = () => controller.current === run;
      setState({ ...IDLE, status: "running" });
      try {
        const result = await agent.invoke(text, {
          signal: run.signal,
          ...(adapter && { adapter }),
          ...(confirmTools !== undefined && { confirmTools }),
          confirmTool: (request) => confirmTool.current?.(request),
          onStep: (step) => {
            if (current()) callIds.current.add(step.id);
            if (current()) setState((previous) => ({ ...previous, steps: withStep(previous.steps, step) }));
          },
        });
        if (current()) {
          controller.current = undefined;
          setState({ status: "done", steps: result.steps, text: result.text, messages: result.messages, error: undefined });
        }
        return result;
      } catch (error) {
        if (current()) {
          controller.current = undefined;
          setState((previous) => ({ ...previous, status: "error", error: toSessionError(error) }));
        }
        return undefined;
      }
    },
    [agent, fallback, adapters, choice, confirmTools],
  );

  const stop = useCallback(() => {
    if (!controller.current) return;
    controller.current.abort();
    controller.current = undefined;
    setState((previous) => ({ ...previous, status: "idle" }));
  }, []);

  return { ...state, invoke, stop, follows };
}
