/** One observation of a download: when, and how far (0 to 1). */
export interface ProgressSample {
  /** Milliseconds, from `Date.now()`. */
  at: number;
  progress: number;
}

/** Below this much observed time, a rate is noise. */
const MIN_ELAPSED_MS = 1_000;

/**
 * Seconds until a download that went from `first` to `latest` finishes, at
 * its average rate so far. `undefined` until it has run at least a second
 * and moved.
 */
export function estimateSecondsLeft(first: ProgressSample, latest: ProgressSample): number | undefined {
  const elapsed = latest.at - first.at;
  const moved = latest.progress - first.progress;
  if (elapsed < MIN_ELAPSED_MS || moved <= 0) return undefined;
  return ((1 - latest.progress) * elapsed) / moved / 1000;
}

/** `"about 20 s left"`, `"about 3 min left"`, `"about 1 h 5 min left"`. */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}
