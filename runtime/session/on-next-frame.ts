/**
 * Calls `callback` once before the next repaint (`requestAnimationFrame`), or
 * after about one 60 Hz frame where there is none (a worker, Node). Returns a
 * function that cancels it. A hidden tab runs no frames: what waits for one
 * waits until the tab shows again, unless something else flushes it first.
 */
export function onNextFrame(callback: () => void): () => void {
  if (typeof requestAnimationFrame === "function") {
    const id = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(id);
  }
  const timer = setTimeout(callback, 16);
  return () => clearTimeout(timer);
}
