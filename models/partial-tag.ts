/**
 * How many characters at the end of `text` are a proper prefix of one of
 * `tags` (0 when none): what a streaming reader holds back until the next
 * chunk says whether a tag is being written.
 */
export function partialTagLength(text: string, tags: readonly string[]): number {
  let longest = 0;
  for (const tag of tags) if (tag.length - 1 > longest) longest = tag.length - 1;
  for (let length = Math.min(text.length, longest); length > 0; length--) {
    const start = text.length - length;
    for (const tag of tags) if (tag.length > length && text.startsWith(tag.slice(0, length), start)) return length;
  }
  return 0;
}

/** Whether `text` from `from` is a proper prefix of `tag` (more text could complete it). */
export function couldBecome(text: string, from: number, tag: string): boolean {
  const rest = text.length - from;
  return rest > 0 && rest < tag.length && tag.startsWith(text.slice(from));
}
