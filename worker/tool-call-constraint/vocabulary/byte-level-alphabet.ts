/** GPT-2's byte-to-character map, in which byte-level BPE vocabularies (Qwen's) write their tokens. */
export interface ByteLevelAlphabet {
  /** A stand-in character to its byte. */
  toByte: Map<string, number>;
  /** Each byte's stand-in character. */
  toChar: string[];
}

let alphabet: ByteLevelAlphabet | undefined;

/** GPT-2's `bytes_to_unicode` table, both ways (built once). */
export function byteLevelAlphabet(): ByteLevelAlphabet {
  if (alphabet) return alphabet;
  const printable: number[] = [];
  for (let byte = 33; byte <= 126; byte++) printable.push(byte);
  for (let byte = 161; byte <= 172; byte++) printable.push(byte);
  for (let byte = 174; byte <= 255; byte++) printable.push(byte);
  const toChar: string[] = [];
  let extra = 0;
  for (let byte = 0; byte < 256; byte++) toChar[byte] = String.fromCodePoint(printable.includes(byte) ? byte : 256 + extra++);
  alphabet = { toByte: new Map(toChar.map((char, byte) => [char, byte])), toChar };
  return alphabet;
}

const encoder = new TextEncoder();

/** `text` as a byte-level token string (each UTF-8 byte as its stand-in character). */
export function toByteLevel(text: string): string {
  const { toChar } = byteLevelAlphabet();
  let written = "";
  for (const byte of encoder.encode(text)) written += toChar[byte];
  return written;
}

/** The bytes a byte-level token string stands for (a character outside the alphabet ends it). */
export function fromByteLevel(token: string): Uint8Array {
  const { toByte } = byteLevelAlphabet();
  const bytes: number[] = [];
  for (const char of token) {
    const byte = toByte.get(char);
    if (byte === undefined) break;
    bytes.push(byte);
  }
  return Uint8Array.from(bytes);
}
