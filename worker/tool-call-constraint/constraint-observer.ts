/** What a constrained generation reports as it runs: for benches and tests, which attach an observer; nothing else listens. */
export interface ToolCallConstraintObserver {
  /** A step inside a call: milliseconds to feed the call's readers and compute the mask, and to apply it; tokens written by jump-forward. */
  step?(step: { prepareMs: number; applyMs: number; jumped: number }): void;
  /** A call closed: how many forward passes and tokens it took, how many steps the budget narrowed, whether its end was written from the plan. */
  callClosed?(call: { forwardPasses: number; tokens: number; narrowedSteps: number; planned: boolean }): void;
  /** A sampled token xgrammar refused (never expected: the call then goes on unconstrained). */
  rejected?(id: number): void;
  /** The completion planner and xgrammar disagreed (never expected: the call goes on masked only). */
  plannerLost?(): void;
  /** The bounds would have refused every token the grammar allows (never expected: that step went unbounded). */
  boundsYielded?(): void;
  /** A token of the call broke a bound the mask should have kept (never expected: the rest of that call goes unbounded). */
  boundsLost?(): void;
  /** A tokenizer's table was built, once for the worker's life: the vocabulary, or xgrammar's table (milliseconds). */
  built?(table: { part: "vocabulary" | "xgrammar"; ms: number }): void;
  /** A tool set's grammar was compiled (milliseconds, tools, format). */
  compiled?(grammar: { ms: number; tools: number; syntax: string }): void;
}

const observers = new Set<ToolCallConstraintObserver>();

/** Attaches an observer to every constrained generation in this realm; returns the detach. */
export function observeToolCallConstraints(observer: ToolCallConstraintObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Whether anything listens (timings are taken only then). */
export function observed(): boolean {
  return observers.size > 0;
}

/** Tells every observer. */
export function notify<K extends keyof ToolCallConstraintObserver>(event: K, ...args: Parameters<NonNullable<ToolCallConstraintObserver[K]>>): void {
  for (const observer of observers) (observer[event] as ((...a: unknown[]) => void) | undefined)?.(...args);
}
