import { EngineError } from "./engine-error.js";
import { modelEngineError } from "./engine-error-messages.js";
import type { ManifestFile } from "./model-manifest.js";
import { chunkUrl, type PartialFile } from "./partial-download.js";
import { findViolation, policyBlockOf } from "../runtime/errors/policy-violations.js";
import type { EngineErrorData, ModelFile, ModelSource } from "./protocol.js";
import { verifyingStream } from "./verifying-stream.js";

/**
 * Bytes held in memory before they go to the Cache API as one chunk: after a
 * dropped connection at most this much is fetched again.
 */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** One file to fetch into the cache, resuming from `state`. */
export interface FileDownload {
  cache: Cache;
  model: ModelSource;
  file: ModelFile;
  /** The file's URL: where it is fetched from and its final key in the cache. */
  url: string;
  /** The file's record in the partial download; changed as chunks land, then `save` persists it. */
  state: PartialFile;
  save: () => Promise<void>;
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** Called once the response says how big the file is (undefined when it does not). */
  onSize?: (bytes: number | undefined) => void;
  /** Bytes that arrived, or were already held from an earlier attempt; negative when held bytes were dropped. */
  onBytes: (bytes: number) => void;
  /** Default {@link CHUNK_BYTES}. */
  chunkBytes?: number;
}

/** The size a file must have: `bytes` when it is pinned (a sha256, or declared exact); a catalog's other sizes are estimates. */
export function exactSize(file: ModelFile): number | undefined {
  return file.bytes !== undefined && (file.sha256 !== undefined || file.exactBytes === true) ? file.bytes : undefined;
}

/** `Content-Range: bytes <start>-<end>/<total>`; `total` undefined for `*`. */
export function parseContentRange(header: string | null): { start: number; end: number; total?: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header?.trim() ?? "");
  if (!match) return undefined;
  return { start: Number(match[1]), end: Number(match[2]), ...(match[3] !== "*" && { total: Number(match[3]) }) };
}

/** A strong ETag, else Last-Modified: what tells a resumed response is the same file as the chunks held. */
function validatorOf(response: Response): string | undefined {
  const etag = response.headers.get("etag");
  if (etag && !etag.startsWith("W/")) return etag;
  return response.headers.get("last-modified") ?? undefined;
}

/** One stream of several, read one after the other (the chunks from the cache, then the bytes still in memory). */
function concatenate(parts: (() => Promise<ReadableStream<Uint8Array>>)[]): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const next = parts[index++];
          if (!next) return controller.close();
          reader = (await next()).getReader();
        }
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        reader = undefined;
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Fetches one file into the Cache API, never committing a wrong one under its
 * URL, and resuming what an earlier attempt left.
 *
 * Why chunks: `Cache.put` commits a body whole or not at all, so bytes
 * streamed into it are lost when the connection drops. Instead the body goes
 * to the cache in {@link CHUNK_BYTES} pieces under derived keys
 * (`?web-agents-chunk=<n>`, listed in the partial record), and once the file
 * is all there the pieces are read back in order, hashed, and written as ONE
 * Response under the file's URL, which is where transformers.js looks. A
 * resume asks for `Range: bytes=<held>-` and appends; a 200 (no Range
 * support) or a 206 that does not start at `<held>` or is not the same file
 * (ETag / Last-Modified) starts the file over. The price: while one file is
 * assembled its bytes are on disk twice (chunks, then the entry), and each
 * byte is written twice; a file smaller than one chunk goes from memory
 * straight to its entry. The hash covers the whole file, resumed bytes
 * included, and is checked before the entry is committed.
 *
 * Rejects with an `EngineError` naming a `reason`: `unreachable`,
 * `connection_dropped` and `http_status` leave the chunks and the record for
 * the next attempt; `not_a_model_file`, `size_mismatch`, `hash_mismatch`,
 * `storage_failed` do not. A `QuotaExceededError` and an abort pass through.
 */
export async function downloadFile(job: FileDownload): Promise<ManifestFile> {
  const { cache, model, file, url, state, signal } = job;
  const host = new URL(url).host;
  const fail = (data: Omit<EngineErrorData, "message" | "file" | "host">, cause?: unknown) => modelEngineError({ file: file.path, host, ...data }, model, cause);
  const present = async (key: string) => (await cache.keys(key)).length > 0;
  const dropChunks = async () => {
    const chunks = state.chunks;
    state.chunks = [];
    delete state.validator;
    await Promise.all(chunks.map((chunk) => cache.delete(chunk.url).catch(() => false)));
    await job.save();
  };

  if (state.done) {
    if (await present(url)) {
      job.onSize?.(state.done.bytes);
      job.onBytes(state.done.bytes);
      return state.done;
    }
    delete state.done;
  }
  // Chunks the browser evicted since: the file starts over.
  if (!(await Promise.all(state.chunks.map((chunk) => present(chunk.url)))).every(Boolean)) await dropChunks();
  let held = state.chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
  if (held > 0) job.onBytes(held);

  const request = async (from: number): Promise<Response> => {
    // Only `Range`, no `If-Range`: a simple range is a CORS-safelisted header, so a cross-origin
    // host needs no preflight; the validator is compared on the answer instead.
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {};
    const started = performance.now();
    try {
      return await job.fetch(url, { headers, ...(signal && { signal }) });
    } catch (error) {
      if (signal?.aborted) throw error;
      const blocked = await blockedConnection(started);
      if (blocked) throw fail({ code: "download_failed", reason: "blocked_by_policy", ...blocked, detail: messageOf(error) }, error);
      throw fail({ code: "download_failed", reason: "unreachable", detail: messageOf(error) }, error);
    }
  };

  const exact = exactSize(file);
  let response = await request(held);
  if (held > 0) {
    const range = response.status === 206 ? parseContentRange(response.headers.get("content-range")) : undefined;
    const length = Number(response.headers.get("content-length") ?? Number.NaN);
    const validator = validatorOf(response);
    const continues =
      response.status === 206 &&
      (range ? range.start === held : exact !== undefined && length === exact - held) &&
      (validator === undefined || state.validator === undefined || validator === state.validator);
    if (!continues) {
      job.onBytes(-held);
      held = 0;
      await dropChunks();
      // A 200 is the whole file already; any other answer is asked again without a range.
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        response = await request(0);
      }
    }
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw fail({ code: "download_failed", reason: "http_status", status: response.status });
  }
  const contentType = response.headers.get("content-type") ?? "";
  // An app's fallback page (SPA routing) answers 200 for any path: it is never a model file.
  if (/^\s*text\/html\b/i.test(contentType)) {
    await response.body?.cancel().catch(() => {});
    throw fail({ code: "download_failed", reason: "not_a_model_file", detail: `content-type: ${contentType}` });
  }

  let announced: number | undefined;
  if (response.status === 206) {
    announced = parseContentRange(response.headers.get("content-range"))?.total;
  } else {
    // A compressed body's content-length is not the file's size.
    const lengthHeader = response.headers.get("content-encoding") ? null : response.headers.get("content-length");
    announced = lengthHeader !== null && Number.isFinite(Number(lengthHeader)) ? Number(lengthHeader) : undefined;
    state.validator = validatorOf(response);
    if (state.validator === undefined) delete state.validator;
  }
  if (exact !== undefined && announced !== undefined && announced !== exact) {
    await response.body?.cancel().catch(() => {});
    throw fail({ code: "integrity_failed", reason: "size_mismatch", detail: `the server announced ${announced} bytes; ${exact} are pinned` });
  }
  const expected = exact ?? announced;
  job.onSize?.(expected);

  const chunkBytes = job.chunkBytes ?? CHUNK_BYTES;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const chunk = { url: chunkUrl(url, state.chunks.length), bytes: pendingBytes };
    await cache.put(chunk.url, new Response(new Blob(pending as BlobPart[])));
    state.chunks.push(chunk);
    held += pendingBytes;
    pending = [];
    pendingBytes = 0;
    await job.save();
  };

  const reader = (response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() })).getReader();
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (error) {
      if (signal?.aborted) throw error;
      // What arrived before the drop is good: keep it, so the next download resumes after it.
      await flush().catch(() => {});
      throw fail({ code: "download_failed", reason: "connection_dropped", detail: messageOf(error) }, error);
    }
    if (step.done) break;
    const bytes = step.value.byteLength;
    if (expected !== undefined && held + pendingBytes + bytes > expected) {
      await reader.cancel().catch(() => {});
      throw fail({ code: "integrity_failed", reason: "size_mismatch", detail: `more than the expected ${expected} bytes arrived` });
    }
    pending.push(step.value);
    pendingBytes += bytes;
    job.onBytes(bytes);
    if (pendingBytes >= chunkBytes) await flush();
  }
  const total = held + pendingBytes;
  if (expected !== undefined && total !== expected) {
    throw fail({ code: "integrity_failed", reason: "size_mismatch", detail: `${total} bytes arrived, expected ${expected}` });
  }

  const tail = pending;
  const parts = [
    ...state.chunks.map((chunk) => async () => {
      const stored = await cache.match(chunk.url);
      if (!stored?.body) throw new Error(`A piece of ${file.path} is missing from the cache.`);
      return stored.body;
    }),
    async () => new Blob(tail as BlobPart[]).stream(),
  ];
  const { stream, file: verified } = verifyingStream({ path: file.path, bytes: total, ...(file.sha256 !== undefined && { sha256: file.sha256 }) });
  try {
    await cache.put(
      url,
      new Response(concatenate(parts).pipeThrough(stream), {
        headers: { "content-type": contentType || "application/octet-stream", "content-length": String(total) },
      }),
    );
  } catch (error) {
    if (verified.error) throw fail({ code: "integrity_failed", reason: verified.error.reason ?? "hash_mismatch", detail: verified.error.message }, verified.error);
    if (error instanceof DOMException && error.name === "QuotaExceededError") throw error;
    if (EngineError.isInstance(error) || signal?.aborted) throw error;
    throw fail({ code: "download_failed", reason: "storage_failed", detail: messageOf(error) }, error);
  }
  const stored: ManifestFile = { path: file.path, url, bytes: verified.bytes, sha256: verified.sha256 };
  const chunks = state.chunks;
  state.chunks = [];
  state.done = stored;
  await job.save();
  await Promise.all(chunks.map((chunk) => cache.delete(chunk.url).catch(() => false)));
  return stored;
}

/**
 * The directive and origin to allow where the worker's Content-Security-Policy
 * refused the request (its connect-src left out the model's host, or the host
 * a download redirects to: the hub sends its files from `*.hf.co`): the
 * browser reports the refusal as a violation, not in the fetch's error.
 */
async function blockedConnection(since: number): Promise<{ directive: string; allow: string } | undefined> {
  const violation = await findViolation((seen) => seen.directive === "connect-src", since);
  return violation && policyBlockOf(violation);
}
