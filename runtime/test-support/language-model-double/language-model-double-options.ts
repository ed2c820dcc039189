import type { DoublePromptRequest } from "./double-session.js";

/** `LanguageModel.availability()`'s answers. */
export type DoubleAvailability = "unavailable" | "downloadable" | "downloading" | "available";

/** How the double behaves. Every field is optional; plain data but `respond`, `countTokens`, `userActivation`, so a page can be handed it as JSON. */
export interface LanguageModelDoubleOptions {
  /** Where the browser's model stands at first. Default `"available"`. */
  availability?: DoubleAvailability;
  /** The languages its model supports (`expectedInputs` / `expectedOutputs`). Default `["en", "ja", "es"]`, Chrome's. */
  languages?: string[];
  /** Tokens a session holds at most. Default 9216. */
  contextWindow?: number;
  /** Tokens in a text. Default: one per 4 characters, rounded up. */
  countTokens?: (text: string) => number;
  /** The scripted reply to each prompt. Default: `replies[request.index]`. */
  respond?: (request: DoublePromptRequest) => string;
  /** Replies in order, by how many replies the session's lineage has given (a clone goes on from its parent's count). */
  replies?: readonly string[];
  /** Characters per streamed chunk. Default 6. */
  chunkSize?: number;
  /**
   * `"instant"` (default): a needed download completes by itself, on tasks.
   * `"manual"`: it stays at 0 until `controller.progress()`, and the model
   * loads only at `controller.completeLoad()` after `completeDownload()`, so a
   * test sees every status.
   */
  download?: "instant" | "manual";
  /** Whether the page has sticky user activation (a click or key press at some point, not used up). Default: `navigator.userActivation.hasBeenActive` (false where there is none). */
  userActivation?: () => boolean;
  /** JSON Schema keywords the double's browser refuses in `responseConstraint` (`NotSupportedError`). Default none. */
  unsupportedKeywords?: string[];
  /**
   * How the double waits before each streamed chunk, called right after the
   * previous one was enqueued. Default: one task (a MessageChannel message),
   * so the page's handling of a chunk runs before the next arrives; a test
   * times that handling by timing this wait.
   */
  nextChunk?: () => Promise<void>;
}
