/** The median of some runs (the upper one of an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds, rounded, right-aligned: `  1,875 ms`. */
export const formatMs = (ms: number, width = 10): string => `${Math.round(ms).toLocaleString("en-US")} ms`.padStart(width);

/** Bytes as MB (10^6), one decimal, right-aligned. */
export const formatMb = (bytes: number, width = 10): string => `${(bytes / 1e6).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`.padStart(width);

/** `a / b` as `0.52x`. */
export const formatRatio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

/** `dedicated` or `shared`, padded. */
export const engineName = (shared: boolean): string => (shared ? "shared" : "dedicated").padEnd(10);
