/**
 * How deeply the JSON text `text` nests arrays and objects, counted in one
 * pass without recursion (so a hostile body cannot overflow the stack here),
 * stopping as soon as the depth passes `limit`. Brackets inside strings do
 * not count. The text need not be valid JSON: this looks only at brackets.
 *
 * @returns the deepest nesting seen, or `limit + 1` once it is passed.
 */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return deepest;
}
