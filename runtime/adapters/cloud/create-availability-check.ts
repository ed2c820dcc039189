import type { ChatAvailability } from "../../server/chat-wire.js";
import type { AdapterStatus } from "../../session/agent-adapter.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { findViolation, policyBlockOf, watchPolicyViolations } from "../../errors/policy-violations.js";

/** After a failed check, a later `status()` call checks again at most this often (the createCloudAdapter reference). */
export const RECHECK_INTERVAL_MS = 10_000;

/** How a GET went: the endpoint is on, off (or answered something else), or unreachable. */
export type CheckResult = "ready" | "unavailable" | "unreachable";

export interface AvailabilityCheckOptions {
  api: string;
  fetch: typeof fetch;
  /** The caller's extra headers for each request. */
  headers: () => Record<string, string>;
  /** A fixed label; otherwise the GET's. */
  label?: string;
}

/** The adapter's status and label, and the GET that sets them. */
export interface AvailabilityCheck {
  /** The current status; in a browser, starts a check when one is due. */
  status(): AdapterStatus;
  readonly label: string;
  subscribe(listener: () => void): () => void;
  /**
   * GETs `api` now, with `extraHeaders` (a session's bot-check token), and
   * updates status and label. Never rejects: a thrown fetch is `"unreachable"`.
   */
  check(extraHeaders?: Record<string, string>, signal?: AbortSignal): Promise<CheckResult>;
  /** The check in flight, if any. */
  inFlight(): Promise<CheckResult> | undefined;
  /** Sets the status from what a POST learned (a 200 proves the endpoint is on; a 503 `chat_disabled` that it is off). */
  set(status: AdapterStatus): void;
}

const LOADING: AdapterStatus = Object.freeze({ state: "loading" });
const READY: AdapterStatus = Object.freeze({ state: "ready" });

// On a server (SSR) a relative `api` has nothing to resolve against, and the
// check would only report the server's own network: status stays `loading`.
const inBrowser = () => typeof window !== "undefined" && typeof document !== "undefined";

function labelFrom(availability: ChatAvailability): string | undefined {
  if (typeof availability.label === "string" && availability.label !== "") return availability.label;
  if (typeof availability.model === "string" && availability.model !== "") return `${availability.model} (cloud)`;
  return undefined;
}

/**
 * The availability half of `createCloudAdapter`: status starts `loading`; the
 * first `status()` call in a browser GETs `api`; `{ enabled: true }` makes it
 * `ready`, anything else `unavailable`. After a failure (any state but
 * `ready`), a later `status()` call checks again, at most every
 * {@link RECHECK_INTERVAL_MS}; the current status stays while it does.
 */
export function createAvailabilityCheck(options: AvailabilityCheckOptions): AvailabilityCheck {
  const listeners = new Set<() => void>();
  let current: AdapterStatus = LOADING;
  let endpointLabel: string | undefined;
  // The latest check; `done` turns true before its result is applied, so a
  // listener that reads status() straight away may already start the next one.
  let latest: { done: boolean } | undefined;
  let pending: Promise<CheckResult> | undefined;
  let lastFailure: number | undefined;

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const set = (status: AdapterStatus) => {
    lastFailure = status.state === "ready" ? undefined : Date.now();
    if (JSON.stringify(status) === JSON.stringify(current)) return;
    current = status;
    notify();
  };

  // The page's violations, for a refused GET (no document: nothing to watch).
  watchPolicyViolations((globalThis as { document?: EventTarget }).document);

  async function get(
    extraHeaders: Record<string, string>,
    signal: AbortSignal | undefined,
    entry: { done: boolean },
  ): Promise<CheckResult> {
    let availability: unknown;
    const started = performance.now();
    try {
      const headers = new Headers(options.headers());
      for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
      headers.set("accept", "application/json");
      const response = await options.fetch(options.api, { method: "GET", headers, ...(signal && { signal }) });
      availability = response.ok ? await response.json().catch(() => undefined) : undefined;
    } catch {
      entry.done = true;
      if (signal?.aborted) return "unreachable";
      // A refusal by the page's Content-Security-Policy looks like a network error: its violation tells them apart.
      const blocked = await findViolation((seen) => seen.directive === "connect-src", started);
      set({ state: "unavailable", reason: blocked ? CLOUD_MESSAGES.blockedByPolicy(policyBlockOf(blocked)?.allow ?? blocked.blocked) : CLOUD_MESSAGES.unreachable });
      return "unreachable";
    }
    const enabled = typeof availability === "object" && availability !== null && (availability as ChatAvailability).enabled === true;
    const label = enabled ? labelFrom(availability as ChatAvailability) : undefined;
    const labelChanged = options.label === undefined && label !== undefined && label !== endpointLabel;
    if (label !== undefined) endpointLabel = label;
    const before = current;
    entry.done = true;
    set(enabled ? READY : { state: "unavailable", reason: CLOUD_MESSAGES.notConfigured });
    if (labelChanged && before === current) notify();
    return enabled ? "ready" : "unavailable";
  }

  const check = (extraHeaders: Record<string, string> = {}, signal?: AbortSignal) => {
    const entry = { done: false };
    latest = entry;
    pending = get(extraHeaders, signal, entry);
    return pending;
  };
  const inFlight = () => (latest && !latest.done ? pending : undefined);

  const due = () =>
    current.state !== "ready" &&
    inFlight() === undefined &&
    (lastFailure === undefined ? current === LOADING : Date.now() - lastFailure >= RECHECK_INTERVAL_MS);

  return {
    status() {
      if (inBrowser() && due()) void check();
      return current;
    },
    get label() {
      return options.label ?? endpointLabel ?? "Cloud";
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    check,
    inFlight,
    set,
  };
}
