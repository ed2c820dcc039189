import type { ReactNode } from "react";
import type { ToolPart } from "../runtime/session/agent-message.js";
import type { ToolCallState } from "../runtime/session/tool-call-state.js";
import { DEFAULT_CHAT_LABELS, type ChatLabels } from "./chat-labels.js";
import { useChatLabels } from "./chat-labels-context.js";
import { parkedPrompt } from "./parked-prompt.js";
import { controlLabel, useParkedTarget } from "./parked-targets.js";
import { ToolConfirmButtons, useHeldCall } from "./tool-confirm-buttons.js";
import { toolTitle } from "./tool-title.js";

/**
 * A call's state in words (`labels.toolStates`, English by default), and
 * while it waits on a control the person can see, what to click ("Waiting
 * for you to click Place order", `labels.waitingForClick`).
 */
export function describeToolState(state: ToolCallState, target?: Element, labels: ChatLabels = DEFAULT_CHAT_LABELS): string {
  const label = state === "awaiting-confirmation" && target ? controlLabel(target) : "";
  return label ? labels.waitingForClick(label) : labels.toolStates[state];
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
  const labels = useChatLabels();
  const name = toolTitle(part.name, labels);
  const output = outputText(part);
  const waiting = part.state === "awaiting-confirmation";
  const target = useParkedTarget(part.id, part.name, waiting);
  const targetLabel = target ? controlLabel(target) : "";
  const held = useHeldCall(part.id);
  const prompt = waiting ? parkedPrompt(part.id, part.prompt, labels) : undefined;
  return (
    <div className="tool" data-state={part.state} data-tool={part.name}>
      <details>
        <summary>
          {part.state === "running" && <span className="spinner" aria-hidden="true" />}
          <span className="name">{name}</span>
          <span className="state">{isDeclined(part) ? labels.notAllowed : describeToolState(part.state, target, labels)}</span>
        </summary>
        <div className="io">
          <h4>{labels.toolHeading}</h4>
          <code dir="ltr">{part.name}</code>
          <h4>{labels.inputHeading}</h4>
          <pre dir="ltr">{json(part.input)}</pre>
          {output !== undefined && (
            <>
              <h4>{labels.outputHeading}</h4>
              <pre dir="auto">{output}</pre>
            </>
          )}
          {part.error !== undefined && (
            <>
              <h4>{part.state === "cancelled" ? labels.stoppedHeading : labels.errorHeading}</h4>
              <pre dir="ltr" lang="en">
                {part.error}
              </pre>
            </>
          )}
        </div>
      </details>
      {prompt && (
        <p className="prompt" role="status">
          {prompt}
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
          {labels.goTo(targetLabel)}
        </button>
      )}
      {part.agent && (
        <div className="nested" role="group" aria-label={labels.agentWork(part.agent.id)}>
          <span className="label">{labels.agentTool(part.agent.id)}</span>
          {children}
        </div>
      )}
    </div>
  );
}
