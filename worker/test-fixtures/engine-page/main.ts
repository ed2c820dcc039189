// The transformers.js engine itself on the page (no worker, no download):
// driven by worker/transformers-engine.reuse.browser.test.ts, which serves the
// built test models at /models/test/<id>/resolve/main/<file>.
import type { RawEngineEvent, GenerateRequest } from "../../protocol.js";
import { ORT_WASM_PATHS } from "../../ort-wasm-paths.js";
import { TransformersEngine } from "../../transformers-engine.js";

const engine = new TransformersEngine({
  // A source's repo `models/test/<id>/resolve/main` is no hub id, so transformers.js fetches
  // it as a path relative to the page: the hub's layout the test server serves.
  localModelPath: "/",
  importTransformers: async () => {
    const library = await import("@huggingface/transformers");
    if (library.env.backends.onnx.wasm) library.env.backends.onnx.wasm.wasmPaths = { ...ORT_WASM_PATHS };
    return library;
  },
});

async function generate(request: GenerateRequest): Promise<RawEngineEvent[]> {
  const events: RawEngineEvent[] = [];
  await engine.generate(request, (event) => events.push(event as RawEngineEvent), new AbortController().signal);
  return events;
}

async function webgpuAdapter(): Promise<string | null> {
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  return (await gpu?.requestAdapter()) ? "adapter" : null;
}

(window as unknown as { engineTest: unknown }).engineTest = { generate, webgpuAdapter };
document.body.dataset.ready = "true";
