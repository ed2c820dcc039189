/** What the markdown bench page is asked to render. */
export interface MarkdownBenchRequest {
  text: string;
  /** How many parts the text streams in, one per animation frame; 1 = whole. */
  parts: number;
  /** Today's parser and view, or those from before issue #14. */
  parser: "after" | "before";
  /** Stops streaming after this long (the old parser can take minutes). */
  deadlineMs: number;
}

/** What the page saw. Widths in CSS pixels. */
export interface MarkdownBenchResult {
  /** Parts rendered before the deadline. */
  partsDone: number;
  /** From the first part until all of it shows: at least one frame (~16.7 ms) per part. */
  totalMs: number;
  /** Every part's render and layout together, without the frames between parts (nor the frames that catch up on a part far ahead). */
  workMs: number;
  /** Each part's render and layout, rounded to the millisecond. */
  updates: number[];
  /** The longest render of one part, with the layout it caused. */
  longestUpdateMs: number;
  /** The longest React render and commit of one part (the rest of an update is style and layout). */
  longestRenderMs: number;
  /** PerformanceObserver `longtask` entries (each over 50 ms). */
  longTasks: number;
  longestTaskMs: number;
  longTasksOver50Ms: number;
  /** The chat's log: as wide as the chat, unless something overflows it. */
  logWidth: number;
  logScrollWidth: number;
  messageWidth: number;
  widestCodeBlock: number;
}
