import { observeToolCallConstraints } from "../../worker/tool-call-constraint/constraint-observer.js";

/** What the constrained generations did while attached: the bench's (and the sampled-calls test's) counters. */
export interface ConstraintCounters {
  /** Per step inside a call: milliseconds to prepare the mask and to apply it. */
  prepareMs: number[];
  applyMs: number[];
  /** Per closed call. */
  calls: { forwardPasses: number; tokens: number; narrowedSteps: number; planned: boolean }[];
  /** Per compiled tool set: milliseconds. */
  compileMs: number[];
  rejected: number;
  plannerLost: number;
  boundsYielded: number;
  boundsLost: number;
  /** Stops counting. */
  detach(): void;
  /** Empties the counts (kept attached). */
  clear(): void;
}

/** Attaches counters to every constrained generation in this realm (worker/tool-call-constraint/constraint-observer.ts). */
export function countConstraints(): ConstraintCounters {
  const counters: ConstraintCounters = {
    prepareMs: [],
    applyMs: [],
    calls: [],
    compileMs: [],
    rejected: 0,
    plannerLost: 0,
    boundsYielded: 0,
    boundsLost: 0,
    detach: () => {},
    clear: () => {
      counters.prepareMs.length = 0;
      counters.applyMs.length = 0;
      counters.calls.length = 0;
      counters.compileMs.length = 0;
      counters.rejected = counters.plannerLost = counters.boundsYielded = counters.boundsLost = 0;
    },
  };
  counters.detach = observeToolCallConstraints({
    step: ({ prepareMs, applyMs }) => {
      counters.prepareMs.push(prepareMs);
      counters.applyMs.push(applyMs);
    },
    callClosed: (call) => counters.calls.push(call),
    compiled: ({ ms }) => counters.compileMs.push(ms),
    rejected: () => (counters.rejected += 1),
    plannerLost: () => (counters.plannerLost += 1),
    boundsYielded: () => (counters.boundsYielded += 1),
    boundsLost: () => (counters.boundsLost += 1),
  });
  return counters;
}

/** The median and a percentile of `values` (0 for none). */
export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
}
