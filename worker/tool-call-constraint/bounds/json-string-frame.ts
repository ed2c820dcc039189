export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** A byte that starts a character (UTF-8: anything but a continuation byte). */
const startsCharacter = (byte: number) => byte < 0x80 || byte >= 0xc0;

/** What a string must not contain (the format's closer: its parser would end the call or the value there), as bytes. */
export type Forbidden = Uint8Array;

/**
 * A string the JSON walker (json-walker.ts) is inside: a key, or a value
 * with its length bounds in characters, the literals an `enum` / `const`
 * allows, and how much of the forbidden closer its last bytes match.
 */
export interface StringFrame {
  kind: "string";
  count: number;
  min: number;
  max: number;
  /** 0 outside an escape, 1 after the backslash, 2..5 through a `\u` escape's digits; -1 once closed. */
  escape: number;
  key: boolean;
  text: string;
  literals?: string[];
  forbid: number;
}

/** A byte inside a string; true when it breaks a bound (the reading ends). Marks the close with escape -1. */
export function readStringByte(frame: StringFrame, byte: number, forbidden: Forbidden | undefined): boolean {
  if (frame.escape > 0) {
    frame.escape = frame.escape === 1 ? (byte === 0x75 ? 2 : 0) : frame.escape === 5 ? 0 : frame.escape + 1;
    if (frame.key || frame.literals) frame.text += String.fromCharCode(byte);
    return frame.literals !== undefined && !frame.literals.some((literal) => literal.startsWith(frame.text));
  }
  if (byte === QUOTE) {
    if (frame.count < frame.min) return true;
    if (frame.literals && !frame.literals.includes(frame.text)) return true;
    frame.escape = -1;
    return false;
  }
  if (byte === BACKSLASH) frame.escape = 1;
  if (frame.key || frame.literals) {
    frame.text += String.fromCharCode(byte);
    if (frame.literals && !frame.literals.some((literal) => literal.startsWith(frame.text))) return true;
  }
  if (startsCharacter(byte) && ++frame.count > frame.max) return true;
  if (forbidden) {
    frame.forbid = byte === forbidden[frame.forbid] ? frame.forbid + 1 : byte === forbidden[0] ? 1 : 0;
    if (frame.forbid === forbidden.length) return true;
  }
  return false;
}
