/**
 * The zero-cost engine's reply: markdown as a model writes it (paragraphs,
 * bold, inline code, a list, a fenced block), repeated to any length, cut
 * into tokens the way Qwen's tokenizer cuts English (a word with its
 * leading space, punctuation and newlines apart).
 */
const PASSAGE = [
  "Here is what I found in your cart. The **blue socks** come in two sizes, and the `size` field says which one you picked.",
  "",
  "- Two pairs of blue socks, size M",
  "- One red hat, `sku: HAT-RED-01`",
  "- Shipping: *standard*, three to five days",
  "",
  "To change the size, call `update_item` with the new value:",
  "",
  "```json",
  '{"sku": "SOCK-BLUE-M", "size": "L"}',
  "```",
  "",
  "Anything else I can check for you? I can also look at the order status, or compare prices.",
  "",
  "",
].join("\n");

const TOKEN = / ?[A-Za-z]+| ?\d+|\n+|[^\sA-Za-z\d]| +/g;

const PASSAGE_TOKENS = PASSAGE.match(TOKEN)!;

/** The first `count` tokens of the reply. */
export function scriptedTokens(count: number): string[] {
  return Array.from({ length: count }, (_, index) => PASSAGE_TOKENS[index % PASSAGE_TOKENS.length]!);
}

/** Tokens in one passage (to size a run in passages). */
export const PASSAGE_TOKEN_COUNT = PASSAGE_TOKENS.length;
