/** What the inline scanner (parse-inline.ts) reads characters with: char codes, classes, and the conditions of its next-occurrence tables. */

// Char codes.
export const BACKTICK = 96;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const QUOTE = 34;
export const STAR = 42;
export const UNDERSCORE = 95;
export const NEWLINE = 10;
export const LOWER_H = 104;

/** JavaScript's `\s`: WhiteSpace and LineTerminator. */
export function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** JavaScript's `\w` (no `u` flag). */
export function isWord(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === UNDERSCORE;
}

/** Ends a bare URL: `[\s<>"'\`]`. */
export function endsBareUrl(code: number): boolean {
  return isSpace(code) || code === 60 || code === 62 || code === QUOTE || code === 39 || code === BACKTICK;
}

/** What a bare URL may not end on: `.,;:!?)]`. */
export function isTrailingPunctuation(code: number): boolean {
  return code === 46 || code === 44 || code === 59 || code === 58 || code === 33 || code === 63 || code === CLOSE_PAREN || code === CLOSE_BRACKET;
}

export type TableName =
  | "codeEnd"
  | "linkTextEnd"
  | "targetEnd"
  | "nonSpace"
  | "titleEnd"
  | "bareUrlEnd"
  | "starOrNewline"
  | "underscoreOrNewline"
  | "newline"
  | "strongStarCloser"
  | "strongUnderscoreCloser";

export const conditions: Record<TableName, (text: string, index: number) => boolean> = {
  codeEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === BACKTICK || code === NEWLINE;
  },
  linkTextEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === CLOSE_BRACKET || code === NEWLINE;
  },
  targetEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === CLOSE_PAREN || isSpace(code);
  },
  nonSpace: (text, index) => !isSpace(text.charCodeAt(index)),
  titleEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === QUOTE || code === NEWLINE;
  },
  bareUrlEnd: (text, index) => endsBareUrl(text.charCodeAt(index)),
  starOrNewline: (text, index) => {
    const code = text.charCodeAt(index);
    return code === STAR || code === NEWLINE;
  },
  underscoreOrNewline: (text, index) => {
    const code = text.charCodeAt(index);
    return code === UNDERSCORE || code === NEWLINE;
  },
  newline: (text, index) => text.charCodeAt(index) === NEWLINE,
  strongStarCloser: (text, index) =>
    index >= 1 && text.charCodeAt(index) === STAR && text.charCodeAt(index + 1) === STAR && !isSpace(text.charCodeAt(index - 1)),
  strongUnderscoreCloser: (text, index) =>
    index >= 1 &&
    text.charCodeAt(index) === UNDERSCORE &&
    text.charCodeAt(index + 1) === UNDERSCORE &&
    !isSpace(text.charCodeAt(index - 1)) &&
    (index + 2 >= text.length || !isWord(text.charCodeAt(index + 2))),
};
