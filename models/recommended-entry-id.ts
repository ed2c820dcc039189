import type { CatalogEntry } from "./catalog-schema.js";

/**
 * The device's default among the entries that run on it (in catalog order):
 * the first marked `recommended`. With `QWEN_CATALOG`, Qwen3.5 0.8B where
 * WebGPU runs it and Qwen3 0.6B on the CPU. `undefined` when none is marked.
 */
export function recommendedEntryId(runnable: Iterable<CatalogEntry>): string | undefined {
  for (const entry of runnable) if (entry.recommended) return entry.id;
  return undefined;
}
