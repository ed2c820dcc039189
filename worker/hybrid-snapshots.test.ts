import { describe, expect, it } from "vitest";
import { startHybrid, type Prefill } from "./hybrid-snapshots.js";
import type { CacheTensor, KeptCache } from "./prefix-cache.js";

/** A state whose one tensor is a GPU buffer that counts its disposals. */
function state(tokens: bigint[], freed: Map<number, number>): KeptCache {
  const id = tokens.length;
  const tensor = { type: "float32", dims: [], data: new Float32Array(), location: "gpu-buffer", dispose: () => freed.set(id, (freed.get(id) ?? 0) + 1) } as unknown as CacheTensor;
  return { modelKey: "m", tokens, entries: { [`past_conv.${id}`]: tensor } };
}
const ids = (...runs: [number, number][]) => runs.flatMap(([from, count]) => Array.from({ length: count }, (_, index) => BigInt(from + index)));

describe("startHybrid", () => {
  const setup = () => {
    const freed = new Map<number, number>();
    const calls: [number, number][] = [];
    const prefill: Prefill = async (tokens, base) => {
      calls.push([tokens.length, base?.tokens.length ?? 0]);
      return state(tokens, freed);
    };
    return { freed, calls, prefill };
  };

  it("prefills to the turn's start, then to the boundary, and keeps both", async () => {
    const { freed, calls, prefill } = setup();
    const { snapshot, cachedPromptTokens } = await startHybrid(ids([0, 10]), undefined, 5, prefill);
    expect(calls).toEqual([[5, 0], [9, 5]]);
    expect(snapshot?.tokens).toHaveLength(9);
    expect(snapshot?.turnStart?.tokens).toHaveLength(5);
    expect(cachedPromptTokens).toBe(0);
    expect(freed.size).toBe(0);
  });

  it("the same turn's next step starts from the boundary and keeps the turn's start", async () => {
    const { freed, calls, prefill } = setup();
    const first = (await startHybrid(ids([0, 10]), undefined, 5, prefill)).snapshot;
    calls.length = 0;
    const { snapshot, cachedPromptTokens } = await startHybrid(ids([0, 14]), first, 5, prefill);
    expect(calls).toEqual([[13, 9]]);
    expect(cachedPromptTokens).toBe(9);
    expect(snapshot?.turnStart?.entries).toBe(first?.turnStart?.entries);
    expect([...freed]).toEqual([[9, 1]]);
  });

  it("a new user turn starts from the last turn's start, makes its own, and frees the old states", async () => {
    const { freed, calls, prefill } = setup();
    const first = (await startHybrid(ids([0, 10]), undefined, 5, prefill)).snapshot;
    calls.length = 0;
    // Diverges after the turn's start (the template re-rendered the turn), a new turn start at 16.
    const { snapshot, cachedPromptTokens } = await startHybrid(ids([0, 5], [100, 15]), first, 16, prefill);
    expect(calls).toEqual([[16, 5], [19, 16]]);
    expect(cachedPromptTokens).toBe(5);
    expect(snapshot?.tokens).toHaveLength(19);
    expect(snapshot?.turnStart?.tokens).toHaveLength(16);
    expect(Object.fromEntries(freed)).toEqual({ 9: 1, 5: 1 });
  });

  it("a changed earlier turn prefills from scratch and frees both kept states", async () => {
    const { freed, calls, prefill } = setup();
    const first = (await startHybrid(ids([0, 10]), undefined, 5, prefill)).snapshot;
    calls.length = 0;
    const { cachedPromptTokens } = await startHybrid(ids([50, 12]), first, undefined, prefill);
    expect(calls).toEqual([[11, 0]]);
    expect(cachedPromptTokens).toBe(0);
    expect(Object.fromEntries(freed)).toEqual({ 9: 1, 5: 1 });
  });
});
