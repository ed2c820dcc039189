/**
 * One clock for the page and its workers: each context's `performance.now()`
 * counts from its own `timeOrigin`, so a worker reports the time of an event
 * as `timeOrigin + now()` and the page reads it back on its own timeline.
 */
export const sharedNow = (): number => performance.timeOrigin + performance.now();

/** A {@link sharedNow} time from any context, on this context's `performance.now()` timeline. */
export const onThisTimeline = (shared: number): number => shared - performance.timeOrigin;

/** Whether a streamed piece is something a person sees (whitespace alone is not). */
export const isVisible = (text: string): boolean => /\S/.test(text);
