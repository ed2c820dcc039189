/** The replies the markdown bench renders, ~150 KB each. */

/** One line of inline code spans, the reply that froze the page in issue #14. */
export function codeSpanLine(length = 150_000): string {
  let text = "";
  for (let index = 0; text.length < length; index++) text += `\`span_${index}\` `;
  return text.slice(0, length);
}

/** A long reply as a model writes one: headings, paragraphs, lists, quotes, links and fenced code. */
export function mixedMarkdown(length = 150_000): string {
  let text = "";
  for (let section = 0; text.length < length; section++) {
    text += `## Step ${section}: check the cart\n\n`;
    text += `Call \`get_cart\` first, then **compare** the totals with the [order page](https://shop.example/orders/${section}) and _only then_ place the order. `;
    text += `If the price changed since https://shop.example/cart/${section} was read, tell the person before you go on.\n`;
    text += `A second line of the same paragraph, with \`inline code\` and __bold__ words.\n\n`;
    text += `- the socks, size ${section % 12}\n- the hat, in **red**\n  (the only colour left)\n- a gift note: *"happy birthday"*\n\n`;
    text += `1. open the cart\n2. read \`items[${section}]\`\n3. confirm\n\n`;
    text += `> The person asked for delivery by Friday.\n> Say so if it cannot be done.\n\n`;
    text += "```ts\n" + `const total = cart.items.reduce((sum, item) => sum + item.price * item.quantity, ${section});\nif (total > limit) throw new Error("over the limit");\n` + "```\n\n";
  }
  return text.slice(0, length);
}

/** An unbroken string: no space, no break opportunity. */
export function unbrokenString(length = 100_000): string {
  return "a".repeat(length);
}

/**
 * One line where every other character could open or close something:
 * `` `a`a`a… `` (code spans), `*a*a…`, `**a**a…`, `_a_a…` (emphasis runs),
 * and unmatched openers. The shapes issue #24 found superlinear.
 */
export function delimiterRunLine(unit: string, length = 150_000): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** The delimiter runs the markdown bench renders, by name. */
export const DELIMITER_RUNS: readonly { name: string; unit: string }[] = [
  { name: "code spans `a`a`a", unit: "`a" },
  { name: "code spans ``a`a", unit: "``a`" },
  { name: "emphasis *a*a", unit: "*a" },
  { name: "strong **a**a", unit: "**a" },
  { name: "emphasis _a_a", unit: "_a" },
  { name: "mixed *`_a", unit: "*`_a" },
  { name: "links [a](", unit: "[a](" },
];
