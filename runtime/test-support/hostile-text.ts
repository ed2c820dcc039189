/**
 * fast-check generators of realistic but hostile text, shared by the fuzz
 * targets: valid structure mixed with garbage, partial tags, unicode that is
 * multi-byte in UTF-8 (and astral, two UTF-16 units), every newline variant,
 * huge tokens and deep nesting.
 */
import fc from "fast-check";

/** Characters that are 1 to 4 bytes in UTF-8, controls, joiners, bidi marks, line and paragraph separators. */
export const hostileChar = fc.constantFrom(
  "a", "Z", "0", " ", "\t", "_", "-", "*", "#", ">", "`", "~", "[", "]", "(", ")", "{", "}", ":", ",", '"', "'", "\\", "/", "<", "=",
  "é", "ß", "€", "日", "本", "😀", "🧪", "👩‍👩‍👧", "\u00a0", "\u200b", "\u200d", "\u202e", "\u2028", "\u2029", "\ufeff", "\u0000", "\u001b", "\ufffd",
);

/** One of the newline variants, a lone CR included. */
export const newline = fc.constantFrom("\n", "\r\n", "\r", "\n\n", "\r\n\r\n");

/** A short run of hostile characters. */
export const hostileWord = fc.array(hostileChar, { maxLength: 12 }).map((characters) => characters.join(""));

/** A single unbroken token of 2,000 to 6,000 characters (one repeated character or a pattern). */
export const hugeToken = fc
  .tuple(fc.constantFrom("a", "日", "😀", "`", "*", "[", "<", "{", " ", "ab<"), fc.integer({ min: 2_000, max: 6_000 }))
  .map(([unit, count]) => unit.repeat(Math.ceil(count / unit.length)));

/** 50 to 2,000 levels of `[`, `{"a":` or `(`, opened and maybe not closed. */
export const deepNesting = fc
  .tuple(fc.constantFrom(["[", "]"], ['{"a":', "}"], ["(", ")"], ["[", ")"]), fc.integer({ min: 50, max: 2_000 }), fc.boolean())
  .map(([[open, close], depth, closed]) => open!.repeat(depth) + (closed ? close!.repeat(depth) : ""));

/** Every prefix of each tag (`<`, `<t`, …, the tag without its last character). */
export function partialTags(tags: readonly string[]): string[] {
  return [...new Set(tags.flatMap((tag) => Array.from({ length: tag.length - 1 }, (_, index) => tag.slice(0, index + 1))))];
}

/**
 * Text built from `pieces` (the format's own structure) mixed with hostile
 * words, newlines, partial tags of `tags` and raw code units, up to
 * `maxPieces` pieces; one in four also carries one huge token or deep
 * nesting somewhere (one at most, so a case stays a case, not a benchmark).
 */
export function hostileMix(pieces: fc.Arbitrary<string>, tags: readonly string[], maxPieces = 40): fc.Arbitrary<string> {
  const partial = partialTags(tags);
  const light = fc.array(
    fc.oneof(
      { weight: 12, arbitrary: pieces },
      { weight: 5, arbitrary: hostileWord },
      { weight: 4, arbitrary: newline },
      { weight: 3, arbitrary: partial.length > 0 ? fc.constantFrom(...partial) : hostileWord },
      { weight: 3, arbitrary: tags.length > 0 ? fc.constantFrom(...tags) : hostileWord },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
    ),
    { maxLength: maxPieces },
  );
  return fc
    .tuple(light, fc.option(fc.oneof(hugeToken, deepNesting), { freq: 3, nil: undefined }), fc.nat())
    .map(([parts, heavy, at]) => {
      if (heavy !== undefined) parts.splice(at % (parts.length + 1), 0, heavy);
      return parts.join("");
    });
}
