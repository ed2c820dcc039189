import { readToolErrorCode } from "../../core/tool-error-output.js";
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
  /** The names of the run's tool doubles (the scenario's `tools`): a call to one that threw a `TypeError`, `ReferenceError`… (`Error [tool_failed]: <tool> failed: TypeError: …`) is the site's error. Default none. */
  doubles?: readonly string[];
  /** The scenario's doubles could not be set up (its `tools` function threw, a double was refused: `duplicate_tool`), so the model never ran. */
  setupError?: { message: string; code?: string };
}

/** An input predicate of the scenario threw: the site's error, not a mismatch. */
class PredicateThrew extends Error {
  constructor(
    readonly where: string,
    readonly thrown: unknown,
  ) {
    super(where);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** `text` ending in a full stop, so the next sentence reads apart. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** `matchesCall`, except that an input predicate that throws throws `PredicateThrew`. */
function callMatches(expected: ExpectedCall, call: EvalCall, where: string): boolean {
  if (call.tool !== expected.tool || typeof expected.input !== "function") return matchesCall(expected, call);
  try {
    return expected.input(call.input) === true;
  } catch (error) {
    throw new PredicateThrew(where, error);
  }
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
 * Why a run of `scenario` failed: an empty list when it passed.
 *
 * The site's own code first: where the scenario's doubles could not be set
 * up, a double threw one of JavaScript's own errors (`TypeError`,
 * `ReferenceError`…: a bug; a plain `Error` is the tool's answer to the
 * model), or an answer or input predicate threw, the run says
 * so (`site-error`, with the thrown message) and nothing else, since it
 * measured the scenario's bug, not the model. A run stopped by the timeout
 * says `timeout` first, then only the forbidden calls it made: a run cut
 * short could still have made the calls it was missing.
 *
 * Otherwise the expected calls are looked for in order, other calls allowed
 * between them; the first one not found is told as `wrong-input` (its tool
 * was called, never with a matching input), `wrong-tool` (other tools were
 * called where it was due) or `missing-call` (nothing was called after the
 * previous match), and the later ones are not judged. Then every forbidden
 * call, the run's error, and the answer.
 */
export function judgeScenarioRun(scenario: AgentScenario, run: ObservedRun): EvalFailure[] {
  if (run.setupError) {
    const code = run.setupError.code;
    return [{ kind: "site-error", ...(code !== undefined && { code }), message: `The scenario's tool doubles could not be set up${code ? ` (${code})` : ""}: ${run.setupError.message} The model did not run.` }];
  }
  const site = doublesThatThrew(run);
  const failures: EvalFailure[] = [];
  const cutShort = run.error?.code === "timeout" || run.error?.code === "aborted";
  try {
    if (cutShort) failures.push(runError(run.error!));
    else judgeCalls(scenario, run, failures);
    judgeForbidden(scenario, run, failures);
  } catch (error) {
    if (!(error instanceof PredicateThrew)) throw error;
    site.push({ kind: "site-error", message: `The scenario's input check for ${error.where} threw: ${messageOf(error.thrown)}. That is a bug in the scenario "${scenario.id}", not the model's call: fix the check.` });
  }
  if (!cutShort && run.error) failures.push(runError(run.error));
  else if (!cutShort && scenario.answer !== undefined && site.length === 0) {
    const shown = run.answer.length > 160 ? `${run.answer.slice(0, 157)}...` : run.answer;
    const checked = answerPasses(scenario.answer, run.answer);
    if (checked !== true && checked !== false) {
      site.push({ kind: "site-error", actual: shown, message: `The scenario's answer predicate threw: ${messageOf(checked.threw)}. That is a bug in the scenario "${scenario.id}", not the model's answer (${JSON.stringify(shown)}): fix the predicate.` });
    } else if (!checked) {
      const expected = typeof scenario.answer === "function" ? "the answer predicate" : String(scenario.answer);
      failures.push({ kind: "answer", expected, actual: shown, message: `The answer ${JSON.stringify(shown)} does not satisfy ${expected}.` });
    }
  }
  return site.length > 0 ? site : failures;
}

function judgeCalls(scenario: AgentScenario, run: ObservedRun, failures: EvalFailure[]): void {
  let position = 0;
  for (const [index, expected] of scenario.calls.entries()) {
    const rest = run.calls.slice(position);
    const found = rest.findIndex((call) => callMatches(expected, call, `call ${index + 1} (${expected.tool})`));
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
}

function judgeForbidden(scenario: AgentScenario, run: ObservedRun, failures: EvalFailure[]): void {
  for (const forbidden of scenario.forbidden) {
    const call = run.calls.find((candidate) => callMatches(forbidden, candidate, `the forbidden ${forbidden.tool}`));
    if (call) failures.push({ kind: "forbidden-call", expected: `no ${forbidden.tool}`, actual: `${call.tool} with ${show(call.input)}`, message: `${call.tool} was called with ${show(call.input)}, which the scenario forbids.` });
  }
}

/** The run's error as a failure: a timeout says the run was slow, not wrong. */
function runError(error: NonNullable<ObservedRun["error"]>): EvalFailure {
  if (error.code === "timeout") return { kind: "timeout", code: "timeout", message: `Timed out: ${error.message} The model was slow here, not judged wrong; raise evaluateAgent's timeoutMs to let it finish.` };
  return { kind: "error", ...(error.code !== undefined && { code: error.code }), message: `The run failed${error.code ? ` (${error.code})` : ""}: ${error.message}` };
}

/**
 * JavaScript's own errors, as run-tool-call.ts names them in a call's error
 * text (`<tool> failed: TypeError: …`): a double that throws one has a bug.
 * A plain `Error` with a message is how a tool tells the model it called
 * wrong (the Field Store's "go_to cart first"), on the page as in a double.
 */
const BUG = /^Error \[tool_failed\]: \S+ failed: ((?:Type|Reference|Range|Syntax|Eval|URI)Error: .*)$/s;

/** A failure per call to one of the run's doubles that threw a bug's error (a `TypeError`, `ReferenceError`…). */
function doublesThatThrew(run: ObservedRun): EvalFailure[] {
  const doubles = new Set(run.doubles ?? []);
  return run.calls.flatMap((call): EvalFailure[] => {
    const bug = doubles.has(call.tool) && call.error !== undefined ? BUG.exec(call.error) : null;
    if (!bug) return [];
    return [
      {
        kind: "site-error",
        code: "tool_failed",
        actual: `${call.tool} with ${show(call.input)}`,
        message: `The tool double ${call.tool} threw on ${show(call.input)}: ${sentence(bug[1]!)} That is a bug in the scenario's code, not the model's call: fix the double.`,
      },
    ];
  });
}

/** Whether `text` passes; `{ threw }` where the scenario's predicate threw. */
function answerPasses(answer: NonNullable<AgentScenario["answer"]>, text: string): boolean | { threw: unknown } {
  if (typeof answer === "string") return text.toLowerCase().includes(answer.toLowerCase());
  if (answer instanceof RegExp) {
    answer.lastIndex = 0;
    return answer.test(text);
  }
  try {
    return answer(text) === true;
  } catch (error) {
    return { threw: error };
  }
}
