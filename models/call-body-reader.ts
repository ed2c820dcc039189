import type { ModelOutputEvent } from "./model-output-event.js";

/**
 * Reads one tool call's body (the text after `<tool_call>`) as it streams,
 * for a format's parser: it alone decides where the call ends, since only
 * the format knows when a `</tool_call>` inside a value is text.
 */
export interface CallBodyReader {
  /** More of the call's text: the call's event and the text after its end once it ended, else undefined. */
  push(text: string): { event: ModelOutputEvent; rest: string } | undefined;
  /** The reply ended inside the call: its event (a call cut off is never run). */
  end(): ModelOutputEvent;
}
