import type { ModelSource } from "../protocol.js";

/** A `ModelSource` for a test model folder `.cache/models/<id>` (fp32, the CPU path). */
export function testModelSource(id: string, overrides: Partial<ModelSource> = {}): ModelSource {
  return { key: `${id}/wasm-fp32`, engine: "transformers", device: "wasm", dtype: "fp32", repo: id, baseUrl: "/models", files: [], ...overrides };
}
