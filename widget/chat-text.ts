/**
 * The chat's own words that more than one part shows or that a later
 * `labels` option will let a site replace: kept here, not in each component.
 */
export const CHAT_TEXT = {
  /** Under a reply the person stopped (Stop, or Escape), whether or not it had said anything. */
  stopped: "Stopped",
} as const;
