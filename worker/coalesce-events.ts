import type { EngineEvent, EventBatch } from "./protocol.js";

/** A frame at 60 Hz: tokens closer together than this cross as one message. */
export const COALESCE_MS = 16;

export interface EventCoalescer {
  push(event: EngineEvent): void;
  /** Posts whatever is held, now. */
  flush(): void;
}

/**
 * Holds a generation's events for at most one frame and posts them as one
 * message, in order: a page that renders once a frame gains nothing from a
 * message per token, and each message costs it a task, a structured clone
 * and a trip through the step loop. Adjacent `text-delta`s are joined into
 * one (the session appends them to the same text part either way); nothing
 * else is merged or reordered.
 *
 * An event arriving a frame or more after the last post goes out at once,
 * so the first token is never held back and a slow model's tokens cross as
 * they come. Anything but text and reasoning (a tool call, the usage, the
 * finish) goes out at once with what was held before it.
 */
export function coalesceEvents(post: (batch: EventBatch) => void, now: () => number = () => performance.now(), frameMs = COALESCE_MS): EventCoalescer {
  let held: EngineEvent[] = [];
  let lastPost = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held.length === 0) return;
    const batch = held;
    held = [];
    lastPost = now();
    post(batch.length === 1 ? batch[0]! : batch);
  };

  return {
    push(event) {
      const streamed = event.type === "text-delta" || event.type === "reasoning";
      if (held.length === 0 && streamed && now() - lastPost >= frameMs) {
        lastPost = now();
        post(event);
        return;
      }
      const last = held.at(-1);
      if (event.type === "text-delta" && last?.type === "text-delta") held[held.length - 1] = { type: "text-delta", delta: last.delta + event.delta };
      else held.push(event);
      if (!streamed) flush();
      else timer ??= setTimeout(flush, Math.max(0, lastPost + frameMs - now()));
    },
    flush,
  };
}
