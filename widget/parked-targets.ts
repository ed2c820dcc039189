import { useSyncExternalStore } from "react";
import { onAgentEvent, type AgentEvent } from "../runtime/core/agent-events.js";

// The controls that parked calls wait on, by call id (or `tool:<name>` for a
// call whose events carry no id), from the core's `park` events until the
// call resumes or ends. One listener per page, started by the first reader,
// so a call that parks before a view renders it is still known.
const targets = new Map<string, Element>();
const readers = new Set<() => void>();
let listening = false;

const keyOf = (event: { callId?: string | undefined; tool: string }) => event.callId ?? `tool:${event.tool}`;

function record(event: AgentEvent): void {
  let changed = false;
  if (event.type === "park" && event.target) {
    targets.set(keyOf(event), event.target);
    changed = true;
  } else if (event.type === "resume" || event.type === "end") {
    changed = targets.delete(keyOf(event));
  }
  if (changed) for (const reader of [...readers]) reader();
}

/** Starts following `park` events (idempotent). Call before the calls whose targets you want can park. */
export function followParkedTargets(): void {
  if (listening) return;
  listening = true;
  onAgentEvent(record);
}

/** Called whenever a parked target comes or goes. Returns the unsubscribe function. */
export function subscribeParkedTargets(reader: () => void): () => void {
  followParkedTargets();
  readers.add(reader);
  return () => readers.delete(reader);
}

/** The control the call `callId` of `tool` is parked on, while it waits and is on the page. */
export function parkedTarget(callId: string, tool: string): Element | undefined {
  const target = targets.get(callId) ?? targets.get(`tool:${tool}`);
  return target?.isConnected ? target : undefined;
}

/** The words a person reads for a control: its accessible label, else its text. */
export function controlLabel(target: Element): string {
  const label = target.getAttribute("aria-label") || (target as HTMLElement).innerText || target.textContent || "";
  return label.replace(/\s+/g, " ").trim();
}

/** {@link parkedTarget}, kept current: the control a parked call waits on, `undefined` otherwise. */
export function useParkedTarget(callId: string, tool: string, parked: boolean): Element | undefined {
  const read = () => (parked ? parkedTarget(callId, tool) : undefined);
  return useSyncExternalStore(subscribeParkedTargets, read, () => undefined);
}
