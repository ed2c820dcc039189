import type { ToolDescriptor } from "../session/tool-descriptor.js";
import { delegateToolName } from "./agent-id.js";
import type { WebAgent } from "./web-agent.js";

/**
 * The descriptor a parent sees for its sub-agent `sub`: `delegate_to_<id>`,
 * with input `{ task: string, context?: string }`. The description is all the
 * parent has to decide when to delegate: `sub.description`, how a delegate
 * works, and, when `sub.tools` is a list, "Its tools: …".
 */
export function delegateTool(sub: WebAgent): ToolDescriptor {
  const parts = [
    sub.description.trim(),
    `This hands the task to the ${sub.id} agent, which works on this page with its own tools ` +
      "and sees only the task and context you give it, not this conversation; it then answers with what it did or found.",
  ];
  if (Array.isArray(sub.tools)) {
    parts.push(`Its tools: ${sub.tools.length > 0 ? sub.tools.join(", ") : "none"}.`);
  }
  return {
    name: delegateToolName(sub.id),
    description: parts.filter((part) => part !== "").join(" "),
    inputSchema: {
      type: "object",
      properties: {
        task: {
          type: "string",
          description: `The task for the ${sub.id} agent, complete on its own: it sees nothing else of this conversation.`,
        },
        context: {
          type: "string",
          description: "Anything else from the conversation it needs: ids, names, what the person already said or chose.",
        },
      },
      required: ["task"],
      additionalProperties: false,
    },
  };
}
