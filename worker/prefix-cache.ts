/**
 * The transformers.js engine's cache across agent steps: what it keeps per
 * conversation, and how a kept cache becomes the next generation's
 * `past_key_values`. Two kinds of model:
 *
 * - **KV only** (Qwen3: every cache input is `past_key_values.i.key/value`):
 *   the cache after the generation, covering prompt and reply, cut back to
 *   the longest common token prefix with the next prompt. Qwen3's template
 *   drops the empty think block of a past turn, so in a tool loop the next
 *   prompt always leaves the cached ids a few tokens before the reply.
 * - **Hybrid** (Qwen3.5: `past_conv.i` / `past_recurrent.i` beside a KV cache
 *   every 4th layer): a recurrent state cannot be cut back to a prefix, so
 *   the engine keeps a snapshot of the whole cache at the prompt boundary
 *   (after all prompt tokens but the last) and reuses it only when the next
 *   prompt's ids extend the snapshot's exactly. Qwen3.5's template re-renders
 *   a past turn so that they do, thinking on or off.
 *
 * On WebGPU the tensors stay GPU buffers. A snapshot is handed to
 * `generate()` as aliases ({@link aliasEntries}): `generate()` disposes every
 * cache tensor it replaces, and the snapshot must outlive the step that
 * reads it. A KV cache that must be cut is downloaded, cut and fed back from
 * CPU memory (ONNX Runtime uploads it).
 * @module
 */

/** A tensor as transformers.js holds it. */
export interface CacheTensor {
  type: string;
  dims: number[];
  data: ArrayLike<unknown> & { subarray(start: number, end: number): ArrayLike<unknown> };
  location?: string;
  dispose(): void;
  /** ONNX Runtime's tensor under it (for GPU buffers: download, alias). */
  ort_tensor?: OrtTensorLike;
}

interface OrtTensorLike {
  type: string;
  dims: readonly number[];
  gpuBuffer: unknown;
  getData(releaseData?: boolean): Promise<ArrayLike<unknown>>;
  constructor: { fromGpuBuffer(buffer: unknown, options: { dataType: string; dims: readonly number[] }): unknown };
}

/** A cache by input name (`past_key_values.0.key`, `past_conv.0`, …). */
export type CacheEntries = Record<string, CacheTensor>;

/** What the helpers need of transformers.js: its Tensor and DynamicCache. */
export interface CacheLibrary {
  Tensor: new (...args: never[]) => unknown;
  DynamicCache: new (entries?: never) => unknown;
}

/** How a model's cache can be reused: see the module comment. `none`: no reuse (no KV input to tell the cached length by). */
export type CacheKind = "kv" | "hybrid" | "none";

/** The cache kind of a decoder session, from its input names. */
export function cacheKind(inputNames: readonly string[]): CacheKind {
  const past = inputNames.filter((name) => name.startsWith("past_"));
  if (!past.some((name) => name.startsWith("past_key_values."))) return "none";
  return past.every((name) => name.startsWith("past_key_values.")) ? "kv" : "hybrid";
}

/** One conversation's kept cache: the token ids it covers and its tensors. */
export interface KeptCache {
  modelKey: string;
  tokens: readonly bigint[];
  entries: CacheEntries;
  /** Hybrid caches: the state at the start of the reply to the last user message, for the next user turn (hybrid-snapshots.ts). */
  turnStart?: KeptCache;
  /** On a turn's start: how many user messages its prompt held (the same count: the same turn). */
  userMessages?: number;
}

/** Frees a kept cache's GPU buffers, its turn's start included. */
export function disposeKept(cache: KeptCache | undefined): void {
  disposeEntries(cache?.entries);
  disposeEntries(cache?.turnStart?.entries);
}

/** Length of the common prefix of `a` and `b`, at most `limit`. */
export function commonPrefixLength(a: readonly bigint[], b: readonly bigint[], limit = Infinity): number {
  const end = Math.min(a.length, b.length, limit);
  let length = 0;
  while (length < end && a[length] === b[length]) length++;
  return length;
}

const onGpu = (tensor: CacheTensor) => tensor.location === "gpu-buffer";

/** Whether any tensor is a GPU buffer. */
export function entriesOnGpu(entries: CacheEntries): boolean {
  return Object.values(entries).some(onGpu);
}

/** Frees the GPU buffers among `entries` (CPU tensors need nothing; disposing twice is harmless). */
export function disposeEntries(entries: CacheEntries | undefined): void {
  for (const tensor of Object.values(entries ?? {})) if (onGpu(tensor)) tensor.dispose();
}

/** Frees the GPU buffers of `entries` that `keep` does not hold. */
export function disposeEntriesExcept(entries: CacheEntries | undefined, keep: CacheEntries | undefined): void {
  const kept = new Set(Object.values(keep ?? {}));
  for (const tensor of Object.values(entries ?? {})) if (onGpu(tensor) && !kept.has(tensor)) tensor.dispose();
}

/**
 * The entries with every GPU tensor replaced by an alias of its buffer whose
 * `dispose()` leaves the buffer alone (ONNX Runtime's `Tensor.fromGpuBuffer`
 * without a disposer): `generate()` may dispose the aliases, the originals
 * stay valid until the engine disposes them.
 */
export function aliasEntries(library: CacheLibrary, entries: CacheEntries): CacheEntries {
  const aliased: CacheEntries = {};
  for (const [name, tensor] of Object.entries(entries)) {
    const ort = tensor.ort_tensor;
    if (!onGpu(tensor) || !ort) {
      aliased[name] = tensor;
      continue;
    }
    // A transformers.js Tensor whose ONNX Runtime tensor is swapped for the alias (its
    // constructor's own ONNX tensor check can see another copy of onnxruntime-common).
    const alias = new library.Tensor("float32" as never, new Float32Array(0) as never, [0] as never) as unknown as { ort_tensor: unknown };
    alias.ort_tensor = ort.constructor.fromGpuBuffer(ort.gpuBuffer, { dataType: ort.type, dims: ort.dims });
    aliased[name] = alias as unknown as CacheTensor;
  }
  return aliased;
}

/** The entries in CPU memory: GPU tensors downloaded (and their buffers released). */
export async function downloadEntries(library: CacheLibrary, entries: CacheEntries): Promise<CacheEntries> {
  const downloaded: CacheEntries = {};
  for (const [name, tensor] of Object.entries(entries)) {
    downloaded[name] =
      onGpu(tensor) && tensor.ort_tensor
        ? (new library.Tensor(tensor.type as never, (await tensor.ort_tensor.getData(true)) as never, tensor.dims as never) as unknown as CacheTensor)
        : tensor;
  }
  return downloaded;
}

/**
 * A KV cache (CPU tensors) cut to its first `length` positions:
 * `[batch, heads, seq, dim]` copied per head with `TypedArray.set`
 * (Tensor.slice is ~30x slower). Entries already that long are kept as they are.
 */
export function cropEntries(library: CacheLibrary, entries: CacheEntries, length: number): CacheEntries {
  const cropped: CacheEntries = {};
  for (const [name, tensor] of Object.entries(entries)) {
    if (tensor.dims.length !== 4) throw new TypeError(`Cannot cut ${name} (dims ${tensor.dims.join("x")}) to a prefix.`);
    const [batch, heads, seq, dim] = tensor.dims as [number, number, number, number];
    if (seq === length) {
      cropped[name] = tensor;
      continue;
    }
    const Data = tensor.data.constructor as new (length: number) => { set(source: ArrayLike<unknown>, offset: number): void };
    const data = new Data(batch * heads * length * dim);
    for (let row = 0; row < batch * heads; row++) {
      data.set(tensor.data.subarray(row * seq * dim, row * seq * dim + length * dim), row * length * dim);
    }
    cropped[name] = new library.Tensor(tensor.type as never, data as never, [batch, heads, length, dim] as never) as unknown as CacheTensor;
  }
  return cropped;
}

/**
 * Up to `limit` conversations' kept caches, the least recently stored
 * dropped first; every cache it drops has its GPU buffers freed.
 */
export class ConversationCaches {
  private readonly caches = new Map<string, KeptCache>();

  constructor(private readonly limit: number) {}

  /** Removes and returns the conversation's cache (the caller owns it now). */
  take(conversationId: string): KeptCache | undefined {
    const kept = this.caches.get(conversationId);
    this.caches.delete(conversationId);
    return kept;
  }

  /** Keeps `cache` for the conversation (freeing what it replaces), dropping the oldest over the limit. */
  set(conversationId: string, cache: KeptCache): void {
    const previous = this.caches.get(conversationId);
    if (previous && previous.entries !== cache.entries) disposeEntriesExcept(previous.entries, cache.entries);
    if (previous?.turnStart && previous.turnStart.entries !== cache.turnStart?.entries) disposeEntriesExcept(previous.turnStart.entries, cache.entries);
    this.caches.delete(conversationId);
    this.caches.set(conversationId, cache);
    while (this.caches.size > this.limit) {
      const [oldest, dropped] = this.caches.entries().next().value!;
      this.caches.delete(oldest);
      disposeKept(dropped);
    }
  }

  /** Drops every cache. */
  clear(): void {
    for (const cache of this.caches.values()) disposeKept(cache);
    this.caches.clear();
  }

  get size(): number {
    return this.caches.size;
  }
}
