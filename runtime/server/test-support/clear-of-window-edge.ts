/** Time a test of a fixed window needs, with room for a machine three times slower. */
const MARGIN_MS = 5_000;

/**
 * Resolves once the current fixed window of `windowMs` (rate-limit.ts counts
 * in `Math.floor(now / windowMs)`) has at least five seconds left, waiting
 * for the next window when it has less: a test's requests then all count in
 * one window, and never pass because the window turned between two of them.
 */
export async function clearOfWindowEdge(windowMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, left + 20));
}
