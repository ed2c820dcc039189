/**
 * Reads the answer out of the constrained reply while it streams: the reply
 * is JSON (`{ "answer": "…" }` or `{ "calls": [...] }`, see
 * response-constraint.ts), and the person should see the answer grow, not a
 * JSON document at the end. Each chunk is scanned once, character by
 * character, with a few fields of state: the work per chunk is linear in the
 * chunk, never in the reply so far (the page's main thread runs it).
 */
export interface AnswerStreamReader {
  /** Reads the next piece of the reply; returns the answer text it adds (often ""). */
  push(chunk: string): string;
}

/** Where the scan is: before the object, at a key, in the answer, skipping another value… */
type State = "before-object" | "expect-key" | "key" | "after-key" | "expect-value" | "answer" | "skip-string" | "skip-value" | "after-value" | "done";

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** A reader for one reply. Only the top-level `answer` string is read; everything else is skipped over. */
export function createAnswerStreamReader(): AnswerStreamReader {
  let state: State = "before-object";
  let key = "";
  let escaped = false;
  /** The hex digits of a `\u` escape read so far (`undefined`: not in one). */
  let unicode: string | undefined;
  /** A high surrogate held until its low half arrives, so no delta ends in half a character. */
  let highSurrogate = "";
  /** Nesting inside a skipped value, and whether the skip is inside one of its strings. */
  let depth = 0;
  let skipInString = false;
  let skipEscaped = false;

  function answerChar(text: string, out: string[]): void {
    const code = text.charCodeAt(0);
    if (highSurrogate) {
      out.push(highSurrogate);
      highSurrogate = "";
    }
    if (code >= 0xd800 && code <= 0xdbff) highSurrogate = text;
    else out.push(text);
  }

  return {
    push(chunk) {
      const out: string[] = [];
      let runStart = -1;
      const flushRun = (end: number) => {
        if (runStart >= 0 && end > runStart) {
          if (highSurrogate) {
            out.push(highSurrogate);
            highSurrogate = "";
          }
          // A chunk may end between the two halves of a character: hold the first half.
          const last = chunk.charCodeAt(end - 1);
          const split = end === chunk.length && last >= 0xd800 && last <= 0xdbff;
          out.push(chunk.slice(runStart, split ? end - 1 : end));
          if (split) highSurrogate = chunk[end - 1]!;
        }
        runStart = -1;
      };
      for (let index = 0; index < chunk.length; index++) {
        const char = chunk[index]!;
        switch (state) {
          case "before-object":
            if (char === "{") state = "expect-key";
            break;
          case "expect-key":
            if (char === '"') {
              state = "key";
              key = "";
            } else if (char === "}") state = "done";
            break;
          case "key":
            // Keys the constraint writes are plain words; an escape in one is kept as written.
            if (escaped) {
              key += char;
              escaped = false;
            } else if (char === "\\") escaped = true;
            else if (char === '"') state = "after-key";
            else key += char;
            break;
          case "after-key":
            if (char === ":") state = "expect-value";
            break;
          case "expect-value":
            if (char === " " || char === "\n" || char === "\r" || char === "\t") break;
            if (char === '"') {
              state = key === "answer" ? "answer" : "skip-string";
            } else {
              state = "skip-value";
              depth = char === "{" || char === "[" ? 1 : 0;
              skipInString = false;
              if (depth === 0) index--;
            }
            break;
          case "answer":
            if (unicode !== undefined) {
              unicode += char;
              if (unicode.length === 4) {
                answerChar(String.fromCharCode(Number.parseInt(unicode, 16)), out);
                unicode = undefined;
              }
            } else if (escaped) {
              escaped = false;
              if (char === "u") unicode = "";
              else answerChar(ESCAPES[char] ?? char, out);
            } else if (char === "\\") {
              flushRun(index);
              escaped = true;
            } else if (char === '"') {
              flushRun(index);
              if (highSurrogate) {
                out.push(highSurrogate);
                highSurrogate = "";
              }
              state = "after-value";
            } else if (runStart < 0) runStart = index;
            break;
          case "skip-string":
            if (skipEscaped) skipEscaped = false;
            else if (char === "\\") skipEscaped = true;
            else if (char === '"') state = "after-value";
            break;
          case "skip-value":
            if (skipInString) {
              if (skipEscaped) skipEscaped = false;
              else if (char === "\\") skipEscaped = true;
              else if (char === '"') skipInString = false;
            } else if (char === '"') skipInString = true;
            else if (char === "{" || char === "[") depth++;
            else if (char === "}" || char === "]") {
              if (depth === 0) {
                state = "done";
              } else if (--depth === 0) state = "after-value";
            } else if (char === "," && depth === 0) state = "expect-key";
            break;
          case "after-value":
            if (char === ",") state = "expect-key";
            else if (char === "}") state = "done";
            break;
          case "done":
            break;
        }
      }
      if (state === "answer") flushRun(chunk.length);
      return out.join("");
    },
  };
}
