/**
 * Prefill of one Qwen3.5-shaped model in its ONNX layouts, same weights,
 * same run: the gated-DeltaNet layers as the hub's -ONNX-OPT exports write
 * them (`CausalConvWithState` + `LinearAttention`) against the hub's
 * original exports' `Scan` over prompt positions (the ratio printed), and
 * the project's earlier closed form in standard operators alongside (see
 * `Qwen35DeltaNetLayout`). Each layout's decoder is built into a temporary
 * folder and run with ONNX Runtime's CPU kernels: onnxruntime-node (native)
 * and onnxruntime-web's WASM build (the kernels a browser without WebGPU
 * runs). Prints one line per runtime and prompt length with the median
 * prefill of each layout and their ratio, then one JSON line. Not part of
 * `npm test`: `npm run bench:qwen35-prefill -- [--layers 4] [--tokens 64,256,1024] [--runs 3] [--runtime node,wasm]`.
 *
 * The model is Qwen3.5-0.8B's layer shapes (models/test-models/qwen35-shape.ts)
 * with `--layers` layers (default 4: 3 gated DeltaNet + 1 full attention,
 * one of the 0.8B's six groups) and a 4,096-row vocabulary: the layouts
 * differ only in the DeltaNet layers, and a smaller vocabulary and depth
 * keep a run to minutes on two cores. It measures the layouts, not the
 * hub's files (random fp32 weights, not q4/q4f16; CPU kernels, not WebGPU's).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildQwen35DecoderGraph, qwen35CacheInputs } from "../models/test-models/qwen35-decoder-graph.js";
import type { Qwen35DeltaNetLayout } from "../models/test-models/qwen35-gated-deltanet-layer.js";
import { QWEN35_0_8B_SHAPE, qwen35LayerTypes, type Qwen35Shape } from "../models/test-models/qwen35-shape.js";
import { writeOnnxModel } from "../models/test-models/write-onnx-model.js";

const LAYOUTS: readonly Qwen35DeltaNetLayout[] = ["scan", "opt", "closed-form"];

/** What a runtime offers: a session per model file, run on plain typed arrays. */
interface PrefillRuntime {
  name: string;
  open(path: string): Promise<(feeds: Record<string, { type: "int64" | "float32"; data: BigInt64Array | Float32Array; dims: number[] }>) => Promise<void>>;
}

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

async function nodeRuntime(): Promise<PrefillRuntime> {
  const ort = await import("onnxruntime-node");
  return {
    name: "onnxruntime-node (CPU)",
    async open(path) {
      const session = await ort.InferenceSession.create(path, { executionProviders: ["cpu"] });
      return async (feeds) => {
        await session.run(Object.fromEntries(Object.entries(feeds).map(([name, { type, data, dims }]) => [name, new ort.Tensor(type, data, dims)])));
      };
    },
  };
}

async function wasmRuntime(): Promise<PrefillRuntime> {
  const ort = await import("onnxruntime-web");
  // One thread: the worker's CPU path in a page that is not cross-origin isolated.
  ort.env.wasm.numThreads = 1;
  return {
    name: "onnxruntime-web (WASM, 1 thread)",
    async open(path) {
      const session = await ort.InferenceSession.create(path, { executionProviders: ["wasm"] });
      return async (feeds) => {
        await session.run(Object.fromEntries(Object.entries(feeds).map(([name, { type, data, dims }]) => [name, new ort.Tensor(type, data, dims)])));
      };
    },
  };
}

/** The feeds of a first forward pass over `tokens` positions: empty caches, logits at the last position only (as transformers.js 4.3.2 prefills). */
function prefillFeeds(shape: Qwen35Shape, layout: Qwen35DeltaNetLayout, tokens: number) {
  const int64 = (values: number[], dims: number[]) => ({ type: "int64" as const, data: BigInt64Array.from(values, BigInt), dims });
  const positions = Array.from({ length: 3 * tokens }, (_, index) => index % tokens);
  const feeds: Record<string, { type: "int64" | "float32"; data: BigInt64Array | Float32Array; dims: number[] }> = {
    input_ids: int64(Array.from({ length: tokens }, (_, index) => (index * 7919) % shape.vocabSize), [1, tokens]),
    attention_mask: int64(Array.from({ length: tokens }, () => 1), [1, tokens]),
    position_ids: int64(positions, [3, 1, tokens]),
    num_logits_to_keep: { type: "int64", data: BigInt64Array.of(1n), dims: [] },
  };
  for (const { name, dims } of qwen35CacheInputs(shape, layout)) {
    const resolved = dims.map((dim) => (dim === "batch_size" ? 1 : typeof dim === "string" ? 0 : dim));
    feeds[name] = { type: "float32", data: new Float32Array(resolved.reduce((product, dim) => product * dim, 1)), dims: resolved };
  }
  return feeds;
}

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const groups = Math.max(1, Math.round(Number(argument("layers", "4")) / 4));
  const lengths = argument("tokens", "64,256,1024").split(",").map(Number);
  const runs = Number(argument("runs", "3"));
  const runtimes = argument("runtime", "node,wasm").split(",");
  const shape: Qwen35Shape = { ...QWEN35_0_8B_SHAPE, layerTypes: qwen35LayerTypes(groups), vocabSize: 4096 };
  const folder = mkdtempSync(join(tmpdir(), "qwen35-prefill-"));
  const results: { runtime: string; tokens: number; medianMs: Record<Qwen35DeltaNetLayout, number>; scanOverOpt: number }[] = [];
  try {
    const paths = Object.fromEntries(
      LAYOUTS.map((layout) => {
        const path = join(folder, `${layout}.onnx`);
        writeOnnxModel(buildQwen35DecoderGraph({ shape, format: "fp32", deltaNet: layout }), { path, externalData: false });
        return [layout, path];
      }),
    ) as Record<Qwen35DeltaNetLayout, string>;
    console.log(`Qwen3.5-0.8B layer shapes, ${shape.layerTypes.length} layers (${shape.layerTypes.filter((type) => type === "linear_attention").length} gated DeltaNet), fp32, median of ${runs} prefills after one warm-up.`);
    for (const runtimeName of runtimes) {
      const runtime = runtimeName === "wasm" ? await wasmRuntime() : await nodeRuntime();
      const sessions = Object.fromEntries(await Promise.all(LAYOUTS.map(async (layout) => [layout, await runtime.open(paths[layout])] as const)));
      for (const tokens of lengths) {
        const medianMs = {} as Record<Qwen35DeltaNetLayout, number>;
        // Same run: the layouts alternate, so a slower stretch of the machine hits both.
        const times: Record<Qwen35DeltaNetLayout, number[]> = { scan: [], opt: [], "closed-form": [] };
        for (const layout of LAYOUTS) await sessions[layout]!(prefillFeeds(shape, layout, tokens));
        for (let run = 0; run < runs; run++) {
          for (const layout of LAYOUTS) {
            const feeds = prefillFeeds(shape, layout, tokens);
            const start = performance.now();
            await sessions[layout]!(feeds);
            times[layout].push(performance.now() - start);
          }
        }
        for (const layout of LAYOUTS) medianMs[layout] = median(times[layout]);
        const ratio = medianMs.scan / medianMs.opt;
        results.push({ runtime: runtime.name, tokens, medianMs, scanOverOpt: ratio });
        console.log(
          `${runtime.name}, ${tokens} tokens: Scan (old hub layout) ${medianMs.scan.toFixed(0)} ms, -OPT layout ${medianMs.opt.toFixed(0)} ms: ratio ${ratio.toFixed(2)}x` +
            ` (closed form ${medianMs["closed-form"].toFixed(0)} ms)`,
        );
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ bench: "qwen35-prefill-layouts", layers: shape.layerTypes.length, runs, results }));
}

await main();
