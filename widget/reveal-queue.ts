import { onNextFrame } from "../runtime/session/on-next-frame.js";

const waiting = new Set<() => void>();
let frameRequested = false;

/**
 * Calls `callback` on a coming animation frame, one waiting callback per
 * frame, first come first served: every `<MarkdownText>` catching up on a
 * long text shares the frames, so a restored conversation of several long
 * replies costs one step of rendering per frame, not one per reply. Returns
 * a function that withdraws the callback.
 */
export function onRevealFrame(callback: () => void): () => void {
  waiting.add(callback);
  if (!frameRequested) {
    frameRequested = true;
    onNextFrame(runFirst);
  }
  return () => {
    waiting.delete(callback);
  };
}

function runFirst(): void {
  frameRequested = false;
  const [first] = waiting;
  if (first) {
    waiting.delete(first);
    first();
  }
  if (waiting.size > 0) {
    frameRequested = true;
    onNextFrame(runFirst);
  }
}
