import type { ModelOutputEvent } from "./model-output-event.js";

/**
 * Where a Qwen stream reader pushes its text events. Where markup was
 * dropped between two pieces of text (a stray closer, an empty thinking
 * block), their two sides could spell a tag (`</think` + `</tool_call>` +
 * `>`): the rest of such a tag is dropped too, and text that may still
 * complete one is held until it cannot, so no tag ever reaches the text,
 * however the output is chunked.
 */
export class TagSafeText {
  readonly #tags: readonly string[];
  readonly #tailLength: number;
  /** The end of the text shown since the last other event: what new text joins onto. */
  #tail = "";
  /** Text that, joined to the tail, may still spell a tag. */
  #held = "";

  constructor(tags: readonly string[]) {
    this.#tags = tags;
    this.#tailLength = Math.max(...tags.map((tag) => tag.length)) - 1;
  }

  push(delta: string, events: ModelOutputEvent[]): void {
    delta = this.#held + delta;
    this.#held = "";
    for (let end = this.#straddlingEnd(this.#tail + delta); end > 0; end = this.#straddlingEnd(this.#tail + delta)) delta = (this.#tail + delta).slice(end);
    if (delta && this.#straddlesPartial(this.#tail + delta)) {
      this.#held = delta;
      return;
    }
    if (!delta) return;
    events.push({ type: "text-delta", delta });
    this.#tail = (this.#tail + delta).slice(-this.#tailLength);
  }

  /** Before another event, or at the end: held text is shown as it is (nothing more can complete a tag with it). */
  end(events: ModelOutputEvent[]): void {
    if (this.#held) events.push({ type: "text-delta", delta: this.#held });
    this.#held = "";
    this.#tail = "";
  }

  /** Where a tag that starts in the tail and ends after it ends in `text` (0: none). */
  #straddlingEnd(text: string): number {
    const boundary = this.#tail.length;
    for (const tag of this.#tags) {
      for (let start = Math.max(0, boundary - tag.length + 1); start < boundary; start++) if (text.startsWith(tag, start)) return start + tag.length;
    }
    return 0;
  }

  /** Whether `text` ends in a proper prefix of a tag that starts in the tail. */
  #straddlesPartial(text: string): boolean {
    const boundary = this.#tail.length;
    for (const tag of this.#tags) {
      for (let start = Math.max(0, text.length - tag.length + 1); start < boundary; start++) if (tag.startsWith(text.slice(start))) return true;
    }
    return false;
  }
}
