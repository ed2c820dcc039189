import type { AgentScenario, ExpectedCall } from "./agent-scenario.js";
import type { EvalCall, EvalFailure } from "./eval-report.js";

/** What a run did, as the judge reads it. */
export interface ObservedRun {
  /** Every tool call, in order (a sub-agent's included). */
  calls: readonly EvalCall[];
  /** The reply's text after the last message. */
  answer: string;
  /** How the run failed, when it did. */
  error?: { message: string; code?: string };
}

/** Whether `actual` holds every key of `expected` with an equal value, objects compared the same way (partially), arrays and the rest exactly. */
export function matchesPartially(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  if (typeof expected !== "object" || expected === null || typeof actual !== "object" || actual === null) return false;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((item, index) => matchesPartially(item, actual[index]) && matchesPartially(actual[index], item));
  }
  if (Array.isArray(actual)) return false;
  return Object.entries(expected).every(([key, value]) => matchesPartially(value, (actual as Record<string, unknown>)[key]));
}

/** Whether a call matches an expected call's tool and input. */
export function matchesCall(expected: ExpectedCall, call: EvalCall): boolean {
  if (call.tool !== expected.tool) return false;
  if (expected.input === undefined) return true;
  if (typeof expected.input === "function") {
    try {
      return expected.input(call.input) === true;
    } catch {
      return false;
    }
  }
  return matchesPartially(expected.input, call.input);
}

const show = (input: unknown) => {
  if (typeof input === "function") return "a predicate";
  const text = JSON.stringify(input) ?? "undefined";
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/**
 * Why a run of `scenario` failed: an empty list when it passed. The expected
 * calls are looked for in order, other calls allowed between them; the
 * first one not found is told as `wrong-input` (its tool was called, never
 * with a matching input), `wrong-tool` (other tools were called where it was
 * due) or `missing-call` (nothing was called after the previous match), and
 * the later ones are not judged. Then every forbidden call, the run's
 * error, and the answer.
 */
export function judgeScenarioRun(scenario: AgentScenario, run: ObservedRun): EvalFailure[] {
  const failures: EvalFailure[] = [];
  let position = 0;
  for (const [index, expected] of scenario.calls.entries()) {
    const rest = run.calls.slice(position);
    const found = rest.findIndex((call) => matchesCall(expected, call));
    if (found >= 0) {
      position += found + 1;
      continue;
    }
    const sameTool = rest.find((call) => call.tool === expected.tool);
    const wanted = `${expected.tool}${expected.input === undefined ? "" : ` with ${show(expected.input)}`}`;
    if (sameTool) {
      const refused = typeof expected.input === "function" ? "which the scenario's input check refuses" : `not ${show(expected.input)}`;
      failures.push({ kind: "wrong-input", call: index, expected: wanted, actual: `${sameTool.tool} with ${show(sameTool.input)}`, message: `Call ${index + 1}: ${expected.tool} was called with ${show(sameTool.input)}, ${refused}.` });
    } else if (rest.length > 0) {
      const names = rest.map((call) => call.tool).join(", ");
      failures.push({ kind: "wrong-tool", call: index, expected: wanted, actual: names, message: `Call ${index + 1}: expected ${expected.tool}, got ${names}.` });
    } else {
      failures.push({ kind: "missing-call", call: index, expected: wanted, message: `Call ${index + 1}: expected ${expected.tool}; ${run.calls.length === 0 ? "no tool was called" : "no call came after the previous one"}.` });
    }
    break;
  }
  for (const forbidden of scenario.forbidden) {
    const call = run.calls.find((candidate) => matchesCall(forbidden, candidate));
    if (call) failures.push({ kind: "forbidden-call", expected: `no ${forbidden.tool}`, actual: `${call.tool} with ${show(call.input)}`, message: `${call.tool} was called with ${show(call.input)}, which the scenario forbids.` });
  }
  if (run.error) {
    failures.push({ kind: "error", ...(run.error.code !== undefined && { code: run.error.code }), message: `The run failed${run.error.code ? ` (${run.error.code})` : ""}: ${run.error.message}` });
  } else if (scenario.answer !== undefined && !answerPasses(scenario.answer, run.answer)) {
    const shown = run.answer.length > 160 ? `${run.answer.slice(0, 157)}...` : run.answer;
    failures.push({ kind: "answer", expected: typeof scenario.answer === "function" ? "the answer predicate" : String(scenario.answer), actual: shown, message: `The answer ${JSON.stringify(shown)} does not satisfy ${typeof scenario.answer === "function" ? "the answer predicate" : String(scenario.answer)}.` });
  }
  return failures;
}

function answerPasses(answer: NonNullable<AgentScenario["answer"]>, text: string): boolean {
  if (typeof answer === "string") return text.toLowerCase().includes(answer.toLowerCase());
  if (answer instanceof RegExp) {
    answer.lastIndex = 0;
    return answer.test(text);
  }
  try {
    return answer(text) === true;
  } catch {
    return false;
  }
}
