/**
 * Timeouts for browser tests whose wait is model work in headless Chromium:
 * a download, ONNX Runtime compiled and a session created in a new worker, a
 * tool loop generated. That work is the proof, so there is nothing to cut;
 * the room a slower machine needs goes into the timeout instead. Sized so
 * that `fresh-ci --slow` (one core for two test files, about twice this
 * machine's times) uses less than half of each, as issue 34 asks.
 */

/** One page that downloads or loads a model and answers: up to 46 s in the slow run of 2026-12-05. */
export const ONE_MODEL_PAGE_MS = 120_000;

/** Two loads of a model (a second tab, a new worker reading the cache): up to 60 s in that run. */
export const TWO_MODEL_LOADS_MS = 150_000;
