/** A part a Content-Security-Policy blocks: the source the site must allow, and the directive to allow it in. */
export interface PolicyBlock {
  /** `script-src`, `connect-src`, `worker-src`… */
  directive: string;
  /** A keyword (`'wasm-unsafe-eval'`), a scheme (`blob:`) or an origin (`https://huggingface.co`). */
  allow: string;
}

/** A Content-Security-Policy violation as a `securitypolicyviolation` event reports it. */
export interface PolicyViolation {
  /** `effectiveDirective`: `script-src`, `script-src-elem`, `connect-src`, `worker-src`… */
  directive: string;
  /** `blockedURI`: a URL, or a keyword: `wasm-eval`, `eval`, `inline`, `blob`, `data`. */
  blocked: string;
  /** When it was reported (`performance.now()`). */
  at: number;
}

const KEPT = 20;
const seen: PolicyViolation[] = [];
const watched = new WeakSet<EventTarget>();
let watching = false;

/**
 * Starts keeping the violations `scope` reports (the engine worker's global,
 * or the page's document for the engine client and the cloud adapter), the
 * last few: a failed fetch, compile or worker start reads them to tell a
 * blocked part from a broken one. Once per scope; no scope, no-op.
 */
export function watchPolicyViolations(scope: EventTarget | undefined = globalThis as unknown as EventTarget): void {
  // Where the platform reports no violations (Node, happy-dom), nothing will come: no watch, and no failure waits for one.
  if (typeof (globalThis as { SecurityPolicyViolationEvent?: unknown }).SecurityPolicyViolationEvent === "undefined") return;
  if (!scope || typeof scope.addEventListener !== "function" || watched.has(scope)) return;
  watched.add(scope);
  watching = true;
  scope.addEventListener("securitypolicyviolation", (event) => {
    const { effectiveDirective, blockedURI } = event as SecurityPolicyViolationEvent;
    seen.push({ directive: effectiveDirective, blocked: blockedURI, at: performance.now() });
    if (seen.length > KEPT) seen.shift();
  });
}

/** How long a failure waits for its violation: the event is queued as a task of its own, after the failure's. */
const EVENT_WAIT_MS = 50;

/**
 * The latest violation since `since` (`performance.now()`, default: any) that
 * `matches`, waiting briefly for one reported just after the failure.
 * Undefined where there is none.
 */
export async function findViolation(matches: (violation: PolicyViolation) => boolean, since = 0): Promise<PolicyViolation | undefined> {
  // Nothing watches (Node, a page without the engine worker): no event will come.
  if (!watching) return undefined;
  const latest = () => seen.findLast((violation) => violation.at >= since && matches(violation));
  if (latest()) return latest();
  await new Promise((resolve) => setTimeout(resolve, EVENT_WAIT_MS));
  return latest();
}

/** Forgets what was seen, and that anything is watched (tests). */
export function forgetPolicyViolations(): void {
  seen.length = 0;
  watching = false;
}

/**
 * What the site must allow, and in which directive, for `violation`:
 * `'wasm-unsafe-eval'` in script-src for WebAssembly, `'unsafe-eval'` for
 * `eval`/`new Function`, the scheme for `blob:` or `data:`, else the blocked
 * URL's origin. Undefined for an inline script or style (the page's own).
 */
export function policyBlockOf(violation: Pick<PolicyViolation, "directive" | "blocked">): PolicyBlock | undefined {
  const scriptDirective = violation.directive.startsWith("script-src") ? "script-src" : violation.directive;
  switch (violation.blocked) {
    case "wasm-eval":
      return { directive: "script-src", allow: "'wasm-unsafe-eval'" };
    case "eval":
      return { directive: "script-src", allow: "'unsafe-eval'" };
    case "inline":
    case "":
      return undefined;
    case "blob":
    case "data":
      return { directive: scriptDirective, allow: `${violation.blocked}:` };
  }
  try {
    const url = new URL(violation.blocked);
    return { directive: scriptDirective, allow: url.protocol === "blob:" || url.protocol === "data:" ? url.protocol : url.origin };
  } catch {
    return undefined;
  }
}
