import { Tensor, DynamicCache } from "@huggingface/transformers";
import { describe, expect, it } from "vitest";
import {
  aliasEntries,
  cacheKind,
  type CacheEntries,
  type CacheLibrary,
  type CacheTensor,
  commonPrefixLength,
  ConversationCaches,
  cropEntries,
  disposeEntriesExcept,
  downloadEntries,
} from "./prefix-cache.js";

const library = { Tensor, DynamicCache } as unknown as CacheLibrary;

/** A stand-in for a GPU tensor: counts disposals, aliases through a fake `fromGpuBuffer`, downloads its data. */
function gpuTensor(name: string, disposed: string[], dims = [1, 1, 2, 2]): CacheTensor {
  const buffer = { name };
  const data = Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => i);
  class FakeOrtTensor {
    type = "float32";
    dims = dims;
    location = "gpu-buffer";
    gpuBuffer = buffer;
    static fromGpuBuffer(gpuBuffer: unknown, options: { dataType: string; dims: readonly number[] }) {
      const alias = new Tensor("float32", new Float32Array(0), [0]) as unknown as { ort_tensor: unknown };
      return Object.assign(alias.ort_tensor as object, { aliasOf: gpuBuffer, aliasDims: options.dims });
    }
    async getData(release?: boolean) {
      if (release) disposed.push(name);
      return data;
    }
  }
  const ort = new FakeOrtTensor();
  return {
    type: "float32",
    dims,
    location: "gpu-buffer",
    get data(): never {
      throw new Error("The data is not on CPU.");
    },
    dispose: () => disposed.push(name),
    ort_tensor: ort as never,
  };
}

describe("cacheKind", () => {
  it("tells KV-only, hybrid, and cacheless decoders apart by their input names", () => {
    expect(cacheKind(["input_ids", "attention_mask", "past_key_values.0.key", "past_key_values.0.value"])).toBe("kv");
    expect(cacheKind(["input_ids", "past_conv.0", "past_recurrent.0", "past_key_values.3.key", "past_key_values.3.value"])).toBe("hybrid");
    expect(cacheKind(["input_ids", "past_ssm.0"])).toBe("none");
    expect(cacheKind(["input_ids"])).toBe("none");
  });
});

describe("commonPrefixLength", () => {
  it("counts equal leading ids, up to a limit", () => {
    expect(commonPrefixLength([1n, 2n, 3n], [1n, 2n, 4n])).toBe(2);
    expect(commonPrefixLength([1n, 2n, 3n], [1n, 2n, 3n, 4n])).toBe(3);
    expect(commonPrefixLength([1n, 2n, 3n], [1n, 2n, 3n, 4n], 2)).toBe(2);
    expect(commonPrefixLength([], [1n])).toBe(0);
  });
});

describe("cropEntries", () => {
  it("cuts [batch, heads, seq, dim] to a prefix per head, and keeps a tensor already that long", () => {
    // heads 2, seq 3, dim 2: head h position p holds 100h + 10p + d.
    const data = Float32Array.from({ length: 12 }, (_, i) => 100 * Math.floor(i / 6) + 10 * Math.floor((i % 6) / 2) + (i % 2));
    const key = new Tensor("float32", data, [1, 2, 3, 2]) as unknown as CacheTensor;
    const cropped = cropEntries(library, { "past_key_values.0.key": key }, 2)["past_key_values.0.key"]!;
    expect(cropped.dims).toEqual([1, 2, 2, 2]);
    expect(Array.from(cropped.data as Float32Array)).toEqual([0, 1, 10, 11, 100, 101, 110, 111]);
    expect(cropEntries(library, { "past_key_values.0.key": key }, 3)["past_key_values.0.key"]).toBe(key);
    expect(() => cropEntries(library, { "past_conv.0": new Tensor("float32", new Float32Array(4), [1, 2, 2]) as unknown as CacheTensor }, 1)).toThrow(/Cannot cut past_conv.0/);
  });
});

describe("GPU tensors", () => {
  it("aliases share the buffer and leave it alone when disposed; downloads release it", async () => {
    const disposed: string[] = [];
    const entries: CacheEntries = { "past_conv.0": gpuTensor("conv", disposed), "past_key_values.1.key": gpuTensor("key", disposed) };
    const aliased = aliasEntries(library, entries);
    expect(aliased["past_conv.0"] === entries["past_conv.0"]).toBe(false);
    expect((aliased["past_conv.0"]!.ort_tensor as unknown as { aliasOf: unknown }).aliasOf).toBe(entries["past_conv.0"]!.ort_tensor!.gpuBuffer);
    aliased["past_conv.0"]!.dispose();
    expect(disposed).toEqual([]);

    const downloaded = await downloadEntries(library, { "past_key_values.1.key": entries["past_key_values.1.key"]! });
    expect(disposed).toEqual(["key"]);
    expect(downloaded["past_key_values.1.key"]!.location).toBe("cpu");
    expect(Array.from(downloaded["past_key_values.1.key"]!.data as Float32Array)).toEqual([0, 1, 2, 3]);
  });

  it("disposeEntriesExcept frees what the kept entries do not hold", () => {
    const disposed: string[] = [];
    const a = gpuTensor("a", disposed);
    const b = gpuTensor("b", disposed);
    disposeEntriesExcept({ x: a, y: b }, { z: b });
    expect(disposed).toEqual(["a"]);
  });

  it("ConversationCaches frees a replaced, an evicted and a cleared cache", () => {
    const disposed: string[] = [];
    const caches = new ConversationCaches(2);
    const kept = (name: string) => ({ modelKey: "m", tokens: [1n], entries: { "past_key_values.0.key": gpuTensor(name, disposed) } });
    caches.set("a", kept("a1"));
    caches.set("a", kept("a2"));
    expect(disposed).toEqual(["a1"]);
    caches.set("b", kept("b"));
    caches.set("c", kept("c"));
    expect(disposed).toEqual(["a1", "a2"]);
    expect(caches.take("a")).toBeUndefined();
    const b = caches.take("b");
    expect(b?.entries["past_key_values.0.key"]).toBeDefined();
    expect(caches.size).toBe(1);
    caches.clear();
    expect(disposed).toEqual(["a1", "a2", "c"]);
  });
});
