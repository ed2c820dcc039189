/**
 * How long a browser test waits for a fixture page's `body[data-ready=true]`.
 * Vite transforms a page on first load; with the suite's CPU-bound files
 * running beside it on a 2-core CI machine, that has taken over 30 s.
 */
export const PAGE_READY_MS = 50_000;
