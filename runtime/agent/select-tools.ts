import type { ToolDescriptor } from "../session/tool-descriptor.js";
import { DELEGATE_PREFIX } from "./agent-id.js";
import { delegateTool } from "./delegate-tool.js";
import { describeValue } from "./describe-value.js";
import type { WebAgent } from "./web-agent.js";

/**
 * What the model sees for `agent` given the page's `tools`, as the
 * defineWebAgent page says: with an agent, incoming `delegate_to_*`
 * descriptors are dropped (delegate tools are rebuilt from the agents' own
 * definitions, so a page cannot fake one); then `agent.tools` applies (a
 * list keeps page order and ignores ids not on the page; a function gets a
 * copy of the page's tools); then one {@link delegateTool} per sub-agent is
 * appended, replacing any page tool of the same name. With no agent, the
 * page's tools as they are (in a new array): with no agent there are no
 * delegates, and a call to a page tool named `delegate_to_*` runs no agent
 * (the session answers it `unknown_tool`).
 *
 * @throws TypeError when `agent.tools` is a function that does not return an
 *   array of tool descriptors.
 */
export function selectTools(agent: WebAgent | undefined, tools: readonly ToolDescriptor[]): ToolDescriptor[] {
  if (agent === undefined) return [...tools];
  // The whole `delegate_to_` namespace is reserved, not only names with a valid id.
  const pageTools = tools.filter((tool) => !tool.name.startsWith(DELEGATE_PREFIX));
  const delegates = agent.agents.map(delegateTool);
  const delegateNames = new Set(delegates.map((tool) => tool.name));
  return [...allowedTools(agent, pageTools).filter((tool) => !delegateNames.has(tool.name)), ...delegates];
}

function allowedTools(agent: WebAgent, pageTools: ToolDescriptor[]): ToolDescriptor[] {
  const filter = agent.tools;
  if (filter === undefined) return pageTools;
  if (typeof filter !== "function") {
    const ids = new Set(filter);
    return pageTools.filter((tool) => ids.has(tool.name));
  }
  const chosen: unknown = filter([...pageTools]);
  if (!Array.isArray(chosen)) {
    throw new TypeError(
      `The tools function of agent ${JSON.stringify(agent.id)} must return an array of tool descriptors; ` +
        `it returned ${describeValue(chosen)}.`,
    );
  }
  chosen.forEach((tool: unknown, index) => {
    if (!isToolDescriptor(tool)) {
      throw new TypeError(
        `The tools function of agent ${JSON.stringify(agent.id)} returned ${describeValue(tool)} at [${index}]; ` +
          "return tool descriptors ({ name, description, inputSchema }), for example a filtered copy of its argument.",
      );
    }
  });
  return (chosen as ToolDescriptor[]).filter((tool) => !tool.name.startsWith(DELEGATE_PREFIX));
}

function isToolDescriptor(value: unknown): value is ToolDescriptor {
  if (typeof value !== "object" || value === null) return false;
  const { name, description, inputSchema } = value as Record<string, unknown>;
  return (
    typeof name === "string" &&
    name !== "" &&
    typeof description === "string" &&
    typeof inputSchema === "object" &&
    inputSchema !== null &&
    !Array.isArray(inputSchema)
  );
}
