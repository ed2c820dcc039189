import fc from "fast-check";

/** Pieces a model's markdown is made of, and the ones that trip parsers up. */
const PIECES = [
  "`", "``", "```", "~~~", "*", "**", "_", "__", "[", "]", "(", ")", "](", "\"", "'", "<", ">", "<script>", "#", "# ", "### ",
  "-", "- ", "+ ", "1. ", "12) ", "> ", "\n", "\n\n", "\r\n", "\r", " ", "  ", "    ", "\t", "a", "b", "word", "x_y", "2*3",
  "http://", "https://a.b/c", "mailto:x@y.z", "javascript:alert(1)", "data:text/html,x", ".", ",", ")", "\u2028", "\u00a0",
];

/**
 * Random text built from markdown's delimiters, words, line breaks and long
 * runs of one piece (where a rescanning parser goes quadratic).
 */
export function markdownishText(options: { maxLength?: number; maxRun?: number } = {}): fc.Arbitrary<string> {
  const piece = fc.constantFrom(...PIECES);
  const run = fc.tuple(piece, fc.integer({ min: 2, max: options.maxRun ?? 40 })).map(([text, times]) => text.repeat(times));
  return fc
    .array(fc.oneof({ weight: 8, arbitrary: piece }, { weight: 1, arbitrary: run }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), {
      maxLength: 60,
    })
    .map((parts) => parts.join("").slice(0, options.maxLength ?? 2_000));
}
