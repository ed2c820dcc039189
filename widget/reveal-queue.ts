import { onNextFrame } from "../runtime/session/on-next-frame.js";

/** The render time one step aims at: a frame's task stays under 50 ms with style and layout after it. */
const STEP_MS = 24;
const MIN_STEP_CHARS = 1_000;
const MAX_STEP_CHARS = 64_000;
let stepChars = 4_000;

/**
 * How many characters of markdown one render may add: what rendered in
 * {@link STEP_MS} lately on this device (4,000 before anything has been
 * measured). A fast laptop renders a 150 KB reply in a few frames, a slow
 * phone in more, neither in one long task.
 */
export function revealStepChars(): number {
  return stepChars;
}

/** Tells the pace that `chars` characters took `ms` to render and commit. */
export function recordRevealStep(chars: number, ms: number): void {
  if (chars < 500) return; // Too little to time: fixed costs dominate.
  const measured = (chars / Math.max(ms, 1)) * STEP_MS;
  stepChars = Math.round(Math.min(MAX_STEP_CHARS, Math.max(MIN_STEP_CHARS, (stepChars + measured) / 2)));
}

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
