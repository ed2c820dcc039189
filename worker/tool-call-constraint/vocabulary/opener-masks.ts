/**
 * Which tokens write a tool call's opener (`<tool_call>`), per how much of it
 * the text already ends with: the opener is one added token in Qwen's
 * tokenizers, but a model may also spell it in pieces (`<`, `tool`, `_call`,
 * `>`). Each set is computed on first use from the vocabulary's texts (one
 * scan, a few milliseconds) and kept.
 */
export class OpenerMasks {
  static readonly #kept = new WeakMap<readonly string[], Map<string, OpenerMasks>>();

  /** The masks for `opener` over `texts`, kept per vocabulary (each set is one scan of it). */
  static for(opener: string, texts: readonly string[]): OpenerMasks {
    let byOpener = OpenerMasks.#kept.get(texts);
    if (!byOpener) OpenerMasks.#kept.set(texts, (byOpener = new Map()));
    let masks = byOpener.get(opener);
    if (!masks) byOpener.set(opener, (masks = new OpenerMasks(opener, texts)));
    return masks;
  }

  readonly #opener: string;
  readonly #texts: readonly string[];
  readonly #completing = new Map<number, { ids: Int32Array; exact: Uint8Array }>();
  readonly #pieces = new Map<number, Int32Array>();

  constructor(opener: string, texts: readonly string[]) {
    this.#opener = opener;
    this.#texts = texts;
  }

  /** How many characters at the end of `text` are a proper prefix of the opener (0 when none). */
  partial(text: string): number {
    for (let length = Math.min(text.length, this.#opener.length - 1); length > 0; length--) {
      if (this.#opener.startsWith(text.slice(-length))) return length;
    }
    return 0;
  }

  /**
   * Tokens that, after `partial` characters of the opener, complete it:
   * `exact[i]` is 1 when the i-th of `ids` ends right where the opener ends
   * (what follows goes to the call's grammar, so a token that runs past it is
   * refused in `auto`).
   */
  completing(partial: number): { ids: Int32Array; exact: Uint8Array } {
    let found = this.#completing.get(partial);
    if (!found) {
      const head = this.#opener.slice(0, partial);
      const ids: number[] = [];
      const exact: number[] = [];
      this.#texts.forEach((text, id) => {
        if (!text) return;
        const joined = head + text;
        const at = joined.indexOf(this.#opener);
        if (at === -1) return;
        ids.push(id);
        exact.push(at + this.#opener.length === joined.length ? 1 : 0);
      });
      found = { ids: Int32Array.from(ids), exact: Uint8Array.from(exact) };
      this.#completing.set(partial, found);
    }
    return found;
  }

  /** Tokens that continue the opener after `partial` characters without running past it. */
  pieces(partial: number): Int32Array {
    let found = this.#pieces.get(partial);
    if (!found) {
      const rest = this.#opener.slice(partial);
      const ids: number[] = [];
      this.#texts.forEach((text, id) => {
        if (text && rest.startsWith(text)) ids.push(id);
      });
      found = Int32Array.from(ids);
      this.#pieces.set(partial, found);
    }
    return found;
  }
}
