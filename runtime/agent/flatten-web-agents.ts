import { describeValue } from "./describe-value.js";
import { isWebAgent } from "./is-web-agent.js";
import type { WebAgent } from "./web-agent.js";

/**
 * Every agent and sub-agent in `agents`, by id, parents before their
 * sub-agents. The same agent reached twice (a sub-agent shared by two
 * parents, or listed at the top level too) counts once.
 *
 * @throws TypeError when `agents` is not an array of agents from
 *   `defineWebAgent`, or when two different agents share an id.
 */
export function flattenWebAgents(agents: readonly WebAgent[]): Map<string, WebAgent> {
  if (!Array.isArray(agents)) {
    throw new TypeError(`flattenWebAgents needs an array of agents from defineWebAgent; got ${describeValue(agents)}.`);
  }
  const byId = new Map<string, WebAgent>();
  const visit = (agent: WebAgent): void => {
    const seen = byId.get(agent.id);
    if (seen === agent) return;
    if (seen !== undefined) throw duplicateAgentId(agent.id);
    byId.set(agent.id, agent);
    agent.agents.forEach(visit);
  };
  agents.forEach((agent: unknown, index) => {
    if (!isWebAgent(agent)) {
      throw new TypeError(
        `flattenWebAgents: agents[${index}] did not come from defineWebAgent (got ${describeValue(agent)}); ` +
          "define each agent with defineWebAgent({ id, instructions }) and list the result.",
      );
    }
    visit(agent);
  });
  return byId;
}

/** The error for two agents with one id: the server looks agents up by id, so it must be unique. */
export function duplicateAgentId(id: string): TypeError {
  return new TypeError(
    `The agent id ${JSON.stringify(id)} is used twice in the tree of agents and sub-agents; ` +
      "give each agent its own id.",
  );
}
