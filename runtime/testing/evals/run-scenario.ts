import type { WebAgent } from "../../agent/web-agent.js";
import { registerWebTool } from "../../core/register-web-tool.js";
import type { AgentAdapter } from "../../session/agent-adapter.js";
import { createAgentSession, type AgentSessionStore } from "../../session/create-agent-session.js";
import { collectSteps } from "../../session/invoke-web-agent.js";
import { replyText } from "../../session/run-agent-loop.js";
import type { ConfirmTool } from "../../session/tool-policy.js";
import type { AgentScenario } from "./agent-scenario.js";
import { errorOf } from "./error-of.js";
import type { EvalCall, EvalRun, EvalStep } from "./eval-report.js";
import { judgeScenarioRun, type ObservedRun } from "./judge-scenario-run.js";
import { recordingAdapter } from "./recording-adapter.js";

/** What one run of a scenario takes besides the scenario. */
export interface RunScenarioOptions {
  adapter: AgentAdapter;
  /** The agent when the scenario names none. */
  agent: WebAgent | undefined;
  /** A run still going after this long is stopped and fails with the code `timeout`. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * One sampled run of `scenario` on `adapter`: its tool doubles registered on
 * the page, a fresh headless session with no storage (the one a person's
 * chat uses, without the chat), each message sent once the previous reply
 * is done, then judged. Never rejects: a failure of the run is a failure in
 * the result.
 */
export async function runScenario(scenario: AgentScenario, options: RunScenarioOptions): Promise<EvalRun> {
  const started = performance.now();
  const registration = new AbortController();
  const confirmations: EvalRun["confirmations"] = [];
  const confirmTool: ConfirmTool = ({ tool }) => {
    const answer = typeof scenario.confirm === "string" ? scenario.confirm : (scenario.confirm[tool] ?? "allow");
    confirmations.push({ tool, answer });
    return answer === "allow";
  };
  const recorder = recordingAdapter(options.adapter);
  const agent = scenario.agent ?? options.agent;
  const session = createAgentSession(recorder, { ...(agent && { agent }), storageKey: false, headless: true, confirmTool });
  let observed: ObservedRun | undefined;
  let doubles: string[] = [];
  try {
    // The scenario's own code: a throw here (its tools function, a double refused as duplicate_tool) is the site's error.
    try {
      const tools = typeof scenario.tools === "function" ? scenario.tools() : (scenario.tools ?? []);
      doubles = tools.map((tool) => tool.name);
      for (const tool of tools) await registerWebTool(tool, { signal: registration.signal });
    } catch (thrown) {
      observed = { calls: [], answer: "", setupError: errorOf(thrown) };
      throw thrown;
    }
    let error: ObservedRun["error"];
    for (const message of scenario.messages) {
      error = await sendAndWait(session, message, options);
      if (error) break;
    }
    const { messages } = session.getSnapshot();
    const lastUser = messages.findLastIndex((message) => message.role === "user");
    observed = { calls: callsOf(messages), answer: replyText(messages.slice(lastUser + 1)), doubles, ...(error && { error }) };
  } catch (thrown) {
    observed ??= { calls: callsOf(session.getSnapshot().messages), answer: "", doubles, error: errorOf(thrown) };
  } finally {
    session.dispose();
    registration.abort();
  }
  const failures = judgeScenarioRun(scenario, observed!);
  return {
    passed: failures.length === 0,
    failures,
    calls: [...observed.calls],
    answer: observed.answer,
    steps: recorder.steps,
    tokensIn: recorder.steps.reduce((total, step) => total + step.promptTokens, 0),
    tokensOut: recorder.steps.reduce((total, step) => total + step.outputTokens, 0),
    confirmations,
    invalidCalls: recorder.invalidCalls,
    ...repairedCalls(recorder.steps),
    durationMs: Math.round(performance.now() - started),
  };
}

/** The steps' repaired calls summed, where any step reported them. */
function repairedCalls(steps: readonly EvalStep[]): { repairedCalls?: number } {
  const reported = steps.filter((step) => step.repairedCalls !== undefined);
  return reported.length ? { repairedCalls: reported.reduce((total, step) => total + step.repairedCalls!, 0) } : {};
}

function callsOf(messages: Parameters<typeof collectSteps>[0]): EvalCall[] {
  return collectSteps(messages).map((step) => ({
    tool: step.tool,
    input: step.input,
    state: step.state,
    ...(step.error !== undefined && { error: step.error }),
    ...(step.agent !== undefined && { agent: step.agent }),
  }));
}

/** Sends one message and resolves when the reply is done: undefined, or the run's error. */
function sendAndWait(session: AgentSessionStore, text: string, options: RunScenarioOptions): Promise<ObservedRun["error"]> {
  return new Promise((resolve) => {
    let started = false;
    const finish = (error?: ObservedRun["error"]) => {
      clearTimeout(timer);
      unsubscribe();
      options.signal?.removeEventListener("abort", onAbort);
      resolve(error);
    };
    // finish() first: stop() tells subscribers at once, and the run must end as stopped, not as done.
    const onAbort = () => {
      finish({ message: "The evaluation was aborted.", code: "aborted" });
      session.stop();
    };
    const timer = setTimeout(() => {
      finish({ message: `The run took over ${options.timeoutMs} ms and was stopped.`, code: "timeout" });
      session.stop();
    }, options.timeoutMs);
    const unsubscribe = session.subscribe(() => {
      if (!started) return;
      const { status, error } = session.getSnapshot();
      if (status === "streaming") return;
      finish(status === "error" ? { message: error?.message ?? "The run failed.", ...(error?.code !== undefined && { code: error.code }) } : undefined);
    });
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    started = true;
    session.send(text);
  });
}
