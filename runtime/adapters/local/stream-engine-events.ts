import type { EngineEvent, EngineHost, StepRequest } from "../../../worker/protocol.js";
import { abortError } from "../abortable.js";

/**
 * `engine.generate` as an async iterable of its events. Aborting `signal`
 * calls `engine.cancel(request.id)` at once and ends the iteration with an
 * `AbortError` without waiting for the engine's last event, so Stop is
 * prompt even while a token is being computed. A rejected `generate` throws
 * its error from the iteration.
 */
export async function* streamEngineEvents(engine: EngineHost, request: StepRequest, signal: AbortSignal): AsyncGenerator<EngineEvent> {
  if (signal.aborted) throw abortError();
  const queue: EngineEvent[] = [];
  let finished = false;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const onAbort = () => {
    engine.cancel(request.id).catch(() => {});
    notify();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  engine
    .generate(request, (event) => {
      queue.push(event);
      notify();
    })
    .then(
      () => (finished = true),
      (error: unknown) => (failure = { error }),
    )
    .finally(notify);
  try {
    for (;;) {
      if (signal.aborted) throw abortError();
      const event = queue.shift();
      if (event) {
        if (event.type === "end") ended = true;
        yield event;
        if (ended) return;
        continue;
      }
      if (failure || finished) ended = true;
      if (failure) throw failure.error;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Left early (the loop stopped reading): the engine must not keep generating.
    if (!ended && !signal.aborted) engine.cancel(request.id).catch(() => {});
  }
}
