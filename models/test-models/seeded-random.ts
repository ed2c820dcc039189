/**
 * Deterministic pseudo-random weights: the same name and seed give the same
 * bytes on every machine, so a rebuilt model is byte-identical and its
 * manifest hashes stay stable.
 */

/** A 32-bit seed derived from a tensor name and a model seed (FNV-1a). */
export function seedFromName(name: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  // xorshift32 is stuck at 0 forever.
  return hash === 0 ? 0x9e3779b9 : hash;
}

/** Uniform [-0.5, 0.5) has this standard deviation (1 / sqrt(12)). */
const UNIFORM_STD = 0.28867513459481287;

/**
 * Fills `target` with uniform noise of standard deviation `std` (xorshift32,
 * about 1 ns a value: the 0.6B-shaped fp32 model's 600M values take seconds).
 */
export function fillUniformFloat32(target: Float32Array, seed: number, std: number): void {
  const scale = (std / UNIFORM_STD) * 2 ** -32;
  let state = seed | 0 || 1;
  for (let index = 0; index < target.length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    target[index] = state * scale;
  }
}

/** Fills `target` with uniformly random bytes (quantized weights, packed nibbles). */
export function fillRandomBytes(target: Uint8Array, seed: number): void {
  // A Uint32Array view needs a 4-byte-aligned offset; otherwise go byte by byte.
  const words =
    target.byteOffset % 4 === 0 ? new Uint32Array(target.buffer, target.byteOffset, target.byteLength >>> 2) : new Uint32Array(0);
  let state = seed | 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  for (let index = 0; index < words.length; index++) words[index] = next();
  for (let index = words.length * 4; index < target.length; index++) target[index] = next() & 0xff;
}
