/**
 * Sets every logit whose bit is clear in `mask` (bit `id % 32` of word
 * `id >> 5`) to -Infinity, and ids past the mask too. Words all set are
 * skipped and runs of clear words filled at once: a call's steps allow
 * either most of the vocabulary (inside a string) or a few tokens, so this
 * is far cheaper than a test per id.
 */
export function applyMask(logits: Float32Array, mask: Int32Array): void {
  const words = Math.min(mask.length, (logits.length + 31) >> 5);
  let clearFrom = -1;
  for (let word = 0; word < words; word++) {
    const bits = mask[word]!;
    if (bits === 0) {
      if (clearFrom < 0) clearFrom = word << 5;
      continue;
    }
    if (clearFrom >= 0) {
      logits.fill(-Infinity, clearFrom, word << 5);
      clearFrom = -1;
    }
    if (bits === -1) continue;
    const base = word << 5;
    for (let bit = 0; bit < 32; bit++) if (((bits >>> bit) & 1) === 0 && base + bit < logits.length) logits[base + bit] = -Infinity;
  }
  logits.fill(-Infinity, clearFrom >= 0 ? clearFrom : words << 5);
}
