import type { ReactNode } from "react";
import type { ToolPart } from "../runtime/session/agent-message.js";
import type { ToolCallState } from "../runtime/session/tool-call-state.js";
import { controlLabel, useParkedTarget } from "./parked-targets.js";
import { ToolConfirmButtons, useHeldCall } from "./tool-confirm-buttons.js";
import { toolTitle } from "./tool-title.js";

/** How each {@link ToolCallState} reads in the chat. */
export const TOOL_STATE_LABELS: Readonly<Record<ToolCallState, string>> = Object.freeze({
  running: "Running…",
  "awaiting-confirmation": "Waiting for you",
  done: "Done",
  error: "Failed",
  cancelled: "Cancelled",
});

/**
 * A call's state in words: {@link TOOL_STATE_LABELS}, and while it waits on
 * a control the person can see, what to click ("Waiting for you to click
 * Place order").
 */
export function describeToolState(state: ToolCallState, target?: Element): string {
  const label = state === "awaiting-confirmation" && target ? controlLabel(target) : "";
  return label ? `Waiting for you to click ${label}` : TOOL_STATE_LABELS[state];
}

/** How long after the confirming click focus is watched, to bring it back if the page drops it. */
const RETURN_WATCH_MS = 3_000;

/**
 * Brings the person to a parked call's control: into view and focused, so
 * Enter or Space confirms. With `returnTo`, focus comes back there when the
 * page drops it after the confirming click (the control disabled or removed
 * by what it did: an emptied cart's Place order), never left on `<body>`.
 */
export function goToControl(target: Element, returnTo?: HTMLElement | null): void {
  target.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  (target as HTMLElement).focus?.({ preventScroll: true });
  if (!returnTo) return;
  const lost = () => document.activeElement === null || document.activeElement === document.body;
  const onClick = () => {
    const until = Date.now() + RETURN_WATCH_MS;
    const bringBack = () => {
      cleanup();
      if (lost() && returnTo.isConnected) returnTo.focus();
    };
    const watch = () => {
      if (lost()) return bringBack();
      // The person moved on (focus went elsewhere): nothing to bring back.
      if (document.activeElement !== target && !target.contains(document.activeElement)) return cleanup();
      if (Date.now() < until) frame = requestAnimationFrame(watch);
      else cleanup();
    };
    let frame = requestAnimationFrame(watch);
    // Chromium blurs a focused control that becomes disabled: catch it at once, not a frame later.
    const onFocusOut = (event: Event) => {
      if ((event as FocusEvent).relatedTarget === null) queueMicrotask(() => lost() && bringBack());
    };
    const cleanup = () => {
      cancelAnimationFrame(frame);
      target.removeEventListener("focusout", onFocusOut);
    };
    target.addEventListener("focusout", onFocusOut);
  };
  target.addEventListener("click", onClick, { once: true });
}

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

/** A call the person (or the site's `confirmTool`) did not allow: it never ran. */
const isDeclined = (part: ToolPart) => part.errorCode === "declined";

function outputText(part: ToolPart): string | undefined {
  const { output } = part;
  if (!output) return undefined;
  if (output.structuredContent) return json(output.structuredContent);
  const text = output.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
  return text === "" ? undefined : text;
}

/**
 * One tool call: its title (`toolTitle`: the tool's registered title, else
 * its name in words) and its state in words, with its name, input and
 * output (or error) in a collapsible `<details>`. While it awaits
 * confirmation, the prompt (what to click on the page) shows outside the
 * fold, with a "Go to <control>" button that focuses the control, or, for a
 * call the tool policy holds, Allow / Don't allow (`ToolConfirmButtons`). A
 * `delegate_to_<id>` call shows the sub-agent's run (`children`) nested
 * under it.
 */
export function ToolCallView({ part, children }: ToolCallViewProps): ReactNode {
  const name = toolTitle(part.name);
  const output = outputText(part);
  const waiting = part.state === "awaiting-confirmation";
  const target = useParkedTarget(part.id, part.name, waiting);
  const targetLabel = target ? controlLabel(target) : "";
  const held = useHeldCall(part.id);
  return (
    <div className="tool" data-state={part.state} data-tool={part.name}>
      <details>
        <summary>
          {part.state === "running" && <span className="spinner" aria-hidden="true" />}
          <span className="name">{name}</span>
          <span className="state">{isDeclined(part) ? "Not allowed" : describeToolState(part.state, target)}</span>
        </summary>
        <div className="io">
          <h4>Tool</h4>
          <code>{part.name}</code>
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
      {waiting && held && <ToolConfirmButtons held={held} />}
      {waiting && !held && target && targetLabel && (
        <button
          type="button"
          className="go-to"
          // Back to this chat's message field if confirming leaves focus nowhere.
          onClick={(event) => goToControl(target, (event.currentTarget.getRootNode() as ParentNode).querySelector<HTMLElement>(".composer textarea"))}
        >
          Go to {targetLabel}
        </button>
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
