/**
 * The longest a run waits, after a tool call, for a full-page navigation the
 * page started to take the page away. A navigation that never ends the page
 * (a 204 answer, a file the server sends as a download) holds the run this
 * long; then the run goes on here, as where the browser has no Navigation API.
 */
export const NAVIGATION_WAIT_MS = 10_000;

/** The part of the Navigation API's `navigate` event this reads (TypeScript's DOM library has no types for it yet). */
interface NavigateEventLike extends Event {
  readonly hashChange: boolean;
  /** A string for a download; null, or absent in a browser without it, otherwise. */
  readonly downloadRequest?: string | null;
  readonly destination: { readonly sameDocument: boolean };
  readonly signal: AbortSignal;
}

interface NavigationLike extends EventTarget {
  readonly transition: unknown;
}

/** A full-page navigation the page started while a tool call ran, seen from the page that may go. */
export interface NavigationWatch {
  /**
   * Resolves at once unless a full-page navigation is under way: then once
   * it is cancelled or ends without a new page, the page comes back from
   * the back-forward cache, `signal` aborts, or `maxMs` passes. The page that
   * goes never goes on from here. Never rejects.
   */
  settled(options: { maxMs: number; signal?: AbortSignal }): Promise<void>;
  /** Stops watching. */
  stop(): void;
}

function navigationOf(): NavigationLike | undefined {
  const navigation = (globalThis as { navigation?: NavigationLike }).navigation;
  return navigation && typeof navigation.addEventListener === "function" ? navigation : undefined;
}

/**
 * Watches for a cross-document navigation that this page starts from now on
 * (a tool's `location.assign`, a link it clicks), through the Navigation
 * API's `navigate` event: a navigation a router intercepts, a fragment, a
 * download or one the page cancels is none. Where the browser has no
 * Navigation API, `settled` always resolves at once.
 */
export function watchNavigation(): NavigationWatch {
  const navigation = navigationOf();
  if (!navigation) return { settled: () => Promise.resolve(), stop: () => {} };
  let going: NavigateEventLike | undefined;
  let ended = false;
  const onEnd = () => {
    ended = true;
  };
  const onNavigate = (event: Event) => {
    const navigate = event as NavigateEventLike;
    if (navigate.hashChange || typeof navigate.downloadRequest === "string" || navigate.destination.sameDocument) return;
    going = navigate;
    ended = false;
  };
  // Either event ends a navigation that kept the page: an intercepted one (a router) or a failed one.
  navigation.addEventListener("navigate", onNavigate);
  navigation.addEventListener("navigatesuccess", onEnd);
  navigation.addEventListener("navigateerror", onEnd);
  const stop = () => {
    navigation.removeEventListener("navigate", onNavigate);
    navigation.removeEventListener("navigatesuccess", onEnd);
    navigation.removeEventListener("navigateerror", onEnd);
  };
  // Under way: not cancelled (preventDefault, another navigation, stop()), not intercepted (a transition runs), not ended.
  const underWay = () => going !== undefined && !going.defaultPrevented && !going.signal.aborted && !ended && !navigation.transition;

  return {
    stop,
    settled({ maxMs, signal }) {
      if (!underWay() || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const cancelled = going!.signal;
        const done = () => {
          clearTimeout(timer);
          cancelled.removeEventListener("abort", done);
          signal?.removeEventListener("abort", done);
          navigation.removeEventListener("navigateerror", done);
          navigation.removeEventListener("navigatesuccess", done);
          globalThis.removeEventListener?.("pageshow", onShow);
          resolve();
        };
        const onShow = (event: Event) => (event as PageTransitionEvent).persisted && done();
        const timer = setTimeout(done, maxMs);
        cancelled.addEventListener("abort", done, { once: true });
        signal?.addEventListener("abort", done, { once: true });
        navigation.addEventListener("navigateerror", done);
        navigation.addEventListener("navigatesuccess", done);
        globalThis.addEventListener?.("pageshow", onShow);
      });
    },
  };
}
