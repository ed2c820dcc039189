import { emitAgentEvent, withCallId } from "./agent-events.js";
import { WebAgentsError } from "./web-agents-error.js";

/** What {@link waitForClick} needs besides the target and prompt. */
export interface WaitForClickOptions {
  /** The tool whose call parks; named in the `park` and `resume` events. */
  tool: string;
  /**
   * The id of the call that parks, carried by the `park` and `resume` events
   * (the tool context's `waitForClick` fills it in). Default: not set; the
   * session and the cursor then match the events by `tool` alone.
   */
  callId?: string;
  /** Aborting stops waiting: the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/**
 * The confirm gate behind `context.waitForClick`: parks a tool call until the
 * person clicks `target` or something inside it.
 *
 * `target` is an element or a CSS selector, resolved once, now. Emits the
 * agent event `park` (with `prompt` and the element), then `resume` on the
 * click; a tool call's timeout is paused between the two. Only a trusted click
 * counts (`event.isTrusted`): a script's `element.click()` does not release it.
 *
 * Rejects with a `WebAgentsError` code `target_not_found` when the selector is
 * invalid or matches nothing or the element is not in the document, a
 * `TypeError` for an empty prompt, and a `DOMException` `AbortError` when
 * `signal` aborts (its listeners are then removed).
 */
export function waitForClick(target: Element | string, prompt: string, options: WaitForClickOptions): Promise<void> {
  const { tool, signal, callId } = options;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(tool));
    if (typeof prompt !== "string" || prompt.trim() === "") {
      return reject(new TypeError(`${tool}: waitForClick needs a prompt that tells the person what to click.`));
    }
    let element: Element;
    try {
      element = resolveTarget(target, tool);
    } catch (error) {
      return reject(error);
    }
    const onClick = (event: Event) => {
      if (!event.isTrusted) return;
      cleanup();
      emitAgentEvent({ type: "resume", tool, ...withCallId(callId) });
      resolve();
    };
    const onAbort = () => {
      cleanup();
      reject(cancelled(tool));
    };
    const cleanup = () => {
      element.removeEventListener("click", onClick, { capture: true });
      signal?.removeEventListener("abort", onAbort);
    };
    // Capture, so a click on a child counts even if the page stops its propagation.
    element.addEventListener("click", onClick, { capture: true });
    signal?.addEventListener("abort", onAbort, { once: true });
    emitAgentEvent({ type: "park", tool, prompt, target: element, ...withCallId(callId) });
  });
}

/** The element `target` names (an element, or a CSS selector resolved now); `use` names the caller in errors. */
export function resolveTarget(target: Element | string, tool: string, use = "waitForClick"): Element {
  if (typeof target === "string") {
    if (typeof document === "undefined") {
      throw new WebAgentsError("no_document", `${tool}: ${use} needs a browser page.`);
    }
    let found: Element | null;
    try {
      found = document.querySelector(target);
    } catch (error) {
      throw new WebAgentsError("target_not_found", `${tool}: ${use} got "${target}", which is not a valid CSS selector.`, {
        cause: error,
      });
    }
    if (!found) {
      throw new WebAgentsError(
        "target_not_found",
        `${tool}: no element matches "${target}". Render the control before calling ${use}, or pass the element itself.`,
      );
    }
    return found;
  }
  // Duck-typed: an element from another realm (an iframe) fails `instanceof Element`.
  if (typeof target !== "object" || target === null || (target as Node).nodeType !== 1) {
    throw new WebAgentsError("target_not_found", `${tool}: ${use} needs an element or a CSS selector.`);
  }
  if (!target.isConnected) {
    throw new WebAgentsError("target_not_found", `${tool}: the element passed to ${use} is not in the document.`);
  }
  return target;
}

function cancelled(tool: string): DOMException {
  return new DOMException(`${tool} was cancelled while waiting for the person's click.`, "AbortError");
}
