import { describe, expect, it } from "vitest";
import { fillRandomBytes, fillUniformFloat32, seedFromName } from "./seeded-random.js";

describe("seeded random weights", () => {
  it("derives distinct, stable seeds from names", () => {
    expect(seedFromName("model.layers.0.mlp.up_proj", 0)).toBe(seedFromName("model.layers.0.mlp.up_proj", 0));
    expect(seedFromName("model.layers.0.mlp.up_proj", 0)).not.toBe(seedFromName("model.layers.1.mlp.up_proj", 0));
    expect(seedFromName("lm_head", 0)).not.toBe(seedFromName("lm_head", 1));
  });

  it("fills reproducible uniform noise with the requested spread", () => {
    const [first, second] = [new Float32Array(100_000), new Float32Array(100_000)];
    fillUniformFloat32(first, 42, 0.02);
    fillUniformFloat32(second, 42, 0.02);
    expect(second).toEqual(first);
    const mean = first.reduce((sum, value) => sum + value, 0) / first.length;
    const std = Math.sqrt(first.reduce((sum, value) => sum + (value - mean) ** 2, 0) / first.length);
    expect(Math.abs(mean)).toBeLessThan(0.001);
    expect(std).toBeGreaterThan(0.019);
    expect(std).toBeLessThan(0.021);
  });

  it("fills bytes, including an unaligned tail and an unaligned view", () => {
    const bytes = new Uint8Array(1003);
    fillRandomBytes(bytes, 7);
    expect(new Set(bytes).size).toBeGreaterThan(200);
    expect(bytes.subarray(1000).some((value) => value !== 0)).toBe(true);
    const unaligned = new Uint8Array(new ArrayBuffer(16), 1, 9);
    fillRandomBytes(unaligned, 7);
    expect(unaligned.some((value) => value !== 0)).toBe(true);
  });
});
