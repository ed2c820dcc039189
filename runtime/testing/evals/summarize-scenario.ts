import type { WebAgent } from "../../agent/web-agent.js";
import type { AgentScenario, ExpectedCall } from "./agent-scenario.js";
import type { EvalScenarioSummary } from "./eval-report.js";

const describeCall = (call: ExpectedCall) =>
  call.input === undefined ? call.tool : typeof call.input === "function" ? `${call.tool}(a predicate)` : `${call.tool}(${JSON.stringify(call.input)})`;

/** A scenario as JSON can carry it: predicates named, not kept. */
export function summarizeScenario(scenario: AgentScenario, agent: WebAgent | undefined): EvalScenarioSummary {
  const agentId = (scenario.agent ?? agent)?.id;
  const answer = scenario.answer;
  return {
    id: scenario.id,
    title: scenario.title,
    ...(agentId !== undefined && { agent: agentId }),
    messages: scenario.messages,
    runs: scenario.runs,
    calls: scenario.calls.map(describeCall),
    forbidden: scenario.forbidden.map(describeCall),
    ...(answer !== undefined && { answer: typeof answer === "function" ? "a predicate" : String(answer) }),
    confirm: scenario.confirm,
    ...(scenario.generation && { generation: scenario.generation }),
  };
}
