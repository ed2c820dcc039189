import type { ReactNode } from "react";
import { DELEGATE_PREFIX, isDelegateTool } from "../runtime/agent/agent-id.js";
import type { ToolPart } from "../runtime/session/agent-message.js";
import type { ToolCallState } from "../runtime/session/tool-call-state.js";

/** How each {@link ToolCallState} reads in the chat. */
export const TOOL_STATE_LABELS: Readonly<Record<ToolCallState, string>> = Object.freeze({
  running: "Running…",
  "awaiting-confirmation": "Waiting for your click",
  done: "Done",
  error: "Failed",
  cancelled: "Cancelled",
});

/** What `<ToolCallView>` takes. */
export interface ToolCallViewProps {
  part: ToolPart;
  /** A delegate call's nested run, rendered by the caller (`<MessageView>`, which renders this view: no import cycle). */
  children?: ReactNode;
}

const json = (value: unknown) => {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
};

function outputText(part: ToolPart): string | undefined {
  const { output } = part;
  if (!output) return undefined;
  if (output.structuredContent) return json(output.structuredContent);
  const text = output.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
  return text === "" ? undefined : text;
}

/**
 * One tool call: its name and state, with its input and output (or error)
 * in a collapsible `<details>`. While it awaits confirmation, the prompt
 * (what to click on the page) shows outside the fold. A `delegate_to_<id>`
 * call shows the sub-agent's run (`children`) nested under it.
 */
export function ToolCallView({ part, children }: ToolCallViewProps): ReactNode {
  const delegate = isDelegateTool(part.name);
  const name = delegate ? `${part.name.slice(DELEGATE_PREFIX.length)} agent` : part.name;
  const output = outputText(part);
  const waiting = part.state === "awaiting-confirmation";
  return (
    <div className="tool" data-state={part.state} data-tool={part.name}>
      <details>
        <summary>
          {part.state === "running" && <span className="spinner" aria-hidden="true" />}
          <span className="name">{name}</span>
          <span className="state">{TOOL_STATE_LABELS[part.state]}</span>
        </summary>
        <div className="io">
          <h4>Input</h4>
          <pre>{json(part.input)}</pre>
          {output !== undefined && (
            <>
              <h4>Output</h4>
              <pre>{output}</pre>
            </>
          )}
          {part.error !== undefined && (
            <>
              <h4>{part.state === "cancelled" ? "Why it stopped" : "Error"}</h4>
              <pre>{part.error}</pre>
            </>
          )}
        </div>
      </details>
      {waiting && part.prompt && (
        <p className="prompt" role="status">
          {part.prompt}
        </p>
      )}
      {part.agent && (
        <div className="nested" role="group" aria-label={`The ${part.agent.id} agent's work`}>
          <span className="label">{part.agent.id} agent</span>
          {children}
        </div>
      )}
    </div>
  );
}
