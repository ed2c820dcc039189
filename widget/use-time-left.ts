import { useState } from "react";
import { estimateSecondsLeft, type ProgressSample } from "./time-left.js";

/**
 * Seconds left for a download now at `progress` (0 to 1), from its average
 * rate since this hook first saw it; `undefined` when there is no download
 * (`progress` undefined) or too little to go on. Progress going backwards
 * (a new download) starts the measurement again.
 */
export function useTimeLeft(progress: number | undefined, now: () => number = Date.now): number | undefined {
  const [first, setFirst] = useState<ProgressSample | undefined>();
  if (progress === undefined) {
    if (first) setFirst(undefined);
    return undefined;
  }
  if (!first || progress < first.progress) {
    setFirst({ at: now(), progress });
    return undefined;
  }
  return estimateSecondsLeft(first, { at: now(), progress });
}
