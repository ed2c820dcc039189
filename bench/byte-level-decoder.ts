/**
 * Token ids to text for a byte-level BPE vocabulary (Qwen's tokenizer.json),
 * with nothing else of a tokenizer: the bare ONNX Runtime baseline's only
 * tokenizer work. Special tokens decode to nothing.
 */
import { byteLevelAlphabet } from "../worker/tool-call-constraint/vocabulary/byte-level-alphabet.js";

export interface TokenizerJson {
  model: { vocab: Record<string, number> };
  added_tokens?: { id: number; content: string; special?: boolean }[];
}

export class ByteLevelDecoder {
  /** Token strings by id, converted to bytes on first use (151k tokens: most are never decoded). */
  private readonly strings: (string | undefined)[] = [];
  private readonly special = new Set<number>();
  private readonly bytes = new Map<number, Uint8Array>();
  // The one byte-level alphabet, shared with the tool-call constraint's vocabulary.
  private readonly table = byteLevelAlphabet().toByte;
  private decoder = new TextDecoder("utf-8");

  constructor(json: TokenizerJson) {
    for (const token in json.model.vocab) this.strings[json.model.vocab[token]!] = token;
    for (const added of json.added_tokens ?? []) {
      if (added.special) this.special.add(added.id);
      else this.bytes.set(added.id, new TextEncoder().encode(added.content));
    }
  }

  /** The text this token completes (bytes of a split character wait for the next token). */
  next(id: number): string {
    if (this.special.has(id)) return "";
    let bytes = this.bytes.get(id);
    if (!bytes) {
      const token = this.strings[id];
      if (token === undefined) return "";
      bytes = Uint8Array.from(Array.from(token, (char) => this.table.get(char) ?? 63));
      this.bytes.set(id, bytes);
    }
    return this.decoder.decode(bytes, { stream: true });
  }

  /** Drops any bytes still waiting for the rest of their character (a new generation starts). */
  reset(): void {
    this.decoder = new TextDecoder("utf-8");
  }
}
