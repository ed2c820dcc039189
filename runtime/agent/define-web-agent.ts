import { isWebTool } from "../core/define-web-tool.js";
import { AGENT_ID } from "./agent-id.js";
import { describeValue } from "./describe-value.js";
import { duplicateAgentId, flattenWebAgents } from "./flatten-web-agents.js";
import { invokeWebAgentLazily } from "./invoke-web-agent-lazily.js";
import { isWebAgent, WEB_AGENT } from "./is-web-agent.js";
import type { ToolFilter, WebAgent, WebAgentConfig, WebAgentInvokeOptions } from "./web-agent.js";

const CONFIG_KEYS = new Set(["id", "description", "instructions", "tools", "agents", "model", "maxSteps"]);

/**
 * Defines an agent once for the browser and the server: what the assistant
 * knows about the site, which of the page's tools it may use, its sub-agents
 * and its model.
 *
 * Returns a deeply frozen {@link WebAgent}: `description` defaults to
 * `"Hand a task to the <id> agent."`; `instructions` becomes an array of
 * lines, trimmed, empty ones dropped (a string, or an entry, with line breaks
 * is split into its lines); `tools` becomes tool ids (a `defineWebTool` tool
 * stands for its name) or stays the filter function, and is absent for every
 * page tool; `agents` defaults to `[]`; `model` and `maxSteps` are absent
 * unless given. `invoke` runs the agent from code, in the browser only.
 *
 * @throws TypeError, with a message that names the fix, for a config that is
 *   not an object, an unknown option, a bad id, a description or model that is not a string,
 *   empty instructions, a `maxSteps` that is not a positive integer, `tools`
 *   neither a list nor a function, a `tools` entry neither an id nor a tool
 *   from `defineWebTool`, an `agents` entry not from `defineWebAgent`, or an
 *   id used twice anywhere in the tree.
 */
export function defineWebAgent(config: WebAgentConfig): WebAgent {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new TypeError(
      `defineWebAgent needs a config object, defineWebAgent({ id, instructions }); got ${describeValue(config)}.`,
    );
  }
  for (const key of Object.keys(config)) {
    // `invoke` is ignored so that `defineWebAgent({ ...agent, id: "other" })` works.
    if (!CONFIG_KEYS.has(key) && key !== "invoke") {
      throw new TypeError(`defineWebAgent: unknown option "${key}". Known options: ${[...CONFIG_KEYS].join(", ")}.`);
    }
  }
  const id: unknown = config.id;
  if (typeof id !== "string" || !AGENT_ID.test(id)) {
    throw new TypeError(
      `defineWebAgent: id must be 1 to 64 of a-z A-Z 0-9 _ . - (${AGENT_ID}), for example "shopper"; ` +
        `got ${describeValue(id)}.`,
    );
  }
  const where = `defineWebAgent(${JSON.stringify(id)})`;
  const description = optionalString(
    config.description,
    `${where}: description must be a string, one sentence on what the agent does, or left out`,
  );
  const model = optionalString(
    config.model,
    `${where}: model must be a "<provider>/<model>" id string such as "anthropic/claude-sonnet-4-5", ` +
      "or left out for the handler's model",
  );
  if (model === "") {
    throw new TypeError(
      `${where}: model is empty; give a "<provider>/<model>" id, or leave it out for the handler's model.`,
    );
  }
  const maxSteps: unknown = config.maxSteps;
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && (maxSteps as number) > 0)) {
    throw new TypeError(
      `${where}: maxSteps must be a positive integer (model steps per user message), for example 10, ` +
        `or left out; got ${describeValue(maxSteps)}.`,
    );
  }
  const tools = toolIds(config.tools, where);
  const agents = subAgents(config.agents, where);

  const fields = {
    id,
    description: description ?? `Hand a task to the ${id} agent.`,
    instructions: instructionLines(config.instructions, where),
    ...(tools !== undefined && { tools }),
    agents,
    ...(model !== undefined && { model }),
    ...(maxSteps !== undefined && { maxSteps: maxSteps as number }),
    invoke: Object.freeze((text: string, options?: WebAgentInvokeOptions) =>
      invokeWebAgentLazily(agent, text, options),
    ),
  };
  Object.defineProperty(fields, WEB_AGENT, { value: true });
  const agent: WebAgent = Object.freeze(fields);
  flattenWebAgents([agent]); // Throws on an id used twice below this agent, or by this agent.
  return agent;
}

function optionalString(value: unknown, fix: string): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  throw new TypeError(`${fix}; got ${describeValue(value)}.`);
}

function instructionLines(instructions: unknown, where: string): readonly string[] {
  const entries: unknown[] = Array.isArray(instructions) ? instructions : [instructions];
  const lines = entries.flatMap((entry, index) => {
    if (typeof entry !== "string") {
      const at = Array.isArray(instructions) ? `instructions[${index}]` : "instructions";
      throw new TypeError(
        `${where}: instructions must be a string or an array of strings; ${at} is ${describeValue(entry)}.`,
      );
    }
    return entry.split(/\r\n|\r|\n/).map((line) => line.trim());
  });
  const kept = lines.filter((line) => line !== "");
  if (kept.length === 0) {
    throw new TypeError(
      `${where}: instructions needs at least one non-empty line: what the site is and how its tools fit together.`,
    );
  }
  return Object.freeze(kept);
}

function toolIds(tools: unknown, where: string): readonly string[] | ToolFilter | undefined {
  if (tools === undefined || typeof tools === "function") return tools as ToolFilter | undefined;
  if (!Array.isArray(tools)) {
    throw new TypeError(
      `${where}: tools must be a list of tool ids and defineWebTool tools, or a function over the page's ` +
        `tool descriptors, or left out for every page tool; got ${describeValue(tools)}.`,
    );
  }
  const ids = tools.map((entry: unknown, index) => {
    if (typeof entry === "string" && entry !== "") return entry;
    if (isWebTool(entry)) return entry.name;
    throw new TypeError(
      `${where}: tools[${index}] must be a tool id (a non-empty string such as "add_to_cart") or a tool ` +
        `from defineWebTool; got ${describeValue(entry)}.`,
    );
  });
  return Object.freeze([...new Set(ids)]);
}

function subAgents(agents: unknown, where: string): readonly WebAgent[] {
  if (agents === undefined) return Object.freeze([]);
  if (!Array.isArray(agents)) {
    throw new TypeError(
      `${where}: agents must be an array of agents from defineWebAgent; got ${describeValue(agents)}.`,
    );
  }
  const ids = new Set<string>();
  agents.forEach((agent: unknown, index) => {
    if (!isWebAgent(agent)) {
      throw new TypeError(
        `${where}: agents[${index}] did not come from defineWebAgent (got ${describeValue(agent)}); ` +
          "define each sub-agent with defineWebAgent({ id, instructions }) and list the result.",
      );
    }
    // Listed twice, the same sub-agent would make two delegate tools of one name.
    if (ids.has(agent.id)) throw duplicateAgentId(agent.id);
    ids.add(agent.id);
  });
  return Object.freeze([...agents]);
}
