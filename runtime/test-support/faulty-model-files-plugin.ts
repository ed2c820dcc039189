import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import type { Plugin } from "vite";

/**
 * What the faulty file server does to the files `FaultPlan.files` matches:
 * - `good`: the file as it is.
 * - `html`: 200 with `text/html` (an app's fallback page) instead of the file.
 * - `short`: the first `at` bytes, with a content-length that says so (a
 *   truncated copy served consistently).
 * - `truncated-chunked`: the first `at` bytes, no content-length, a clean end.
 * - `bit-flip`: the whole file with byte `at` inverted.
 * - `drop`: the file's full content-length, `at` bytes, then the socket destroyed.
 */
export type Fault = "good" | "html" | "short" | "truncated-chunked" | "bit-flip" | "drop";

/** The server's behaviour, changed by the test between steps (the plugin reads it per request). */
export interface FaultPlan {
  fault: Fault;
  /** Which files the fault hits: a file path inside the model (`onnx/model.onnx`) or a pattern. Default: every file. */
  files?: string | RegExp;
  /** Where a cut or flip happens: a byte offset, or a fraction of the file below 1. Default 0.5. */
  at?: number;
  /** Answer `Range: bytes=N-` with 206 (default true); off, a range is ignored and the whole file comes with 200. */
  ranges?: boolean;
  /** Milliseconds between 64 KB pieces of a body (default 0: all at once). */
  trickleMs?: number;
}

/** One request the server answered. */
export interface FaultyRequest {
  /** The file's path inside the model, e.g. `tokenizer.json`. */
  file: string;
  range?: string;
  status: number;
  fault: Fault;
}

export interface FaultyModelFiles {
  plugin: Plugin;
  plan: FaultPlan;
  requests: FaultyRequest[];
  /** GETs per file path. */
  counts(): Record<string, number>;
}

const PIECE = 64 * 1024;

async function send(response: ServerResponse, body: Buffer, trickleMs: number, then?: () => void): Promise<void> {
  for (let offset = 0; offset < body.length; offset += PIECE) {
    if (response.destroyed) return;
    await new Promise<void>((resolve) => response.write(body.subarray(offset, offset + PIECE), () => resolve()));
    if (trickleMs > 0) await new Promise((resolve) => setTimeout(resolve, trickleMs));
  }
  if (then) then();
  else response.end();
}

/**
 * Serves the built test models at `/faulty/test/<id>/resolve/main/<path>`
 * (the hub's layout, like `modelFilesPlugin`) with the faults a real network
 * and real hosts produce, per `plan`, and records every request, so browser
 * tests can check what the downloader keeps, what it asks again, and how
 * often it asks.
 */
export function faultyModelFiles(root: string, initial: FaultPlan = { fault: "good" }): FaultyModelFiles {
  const requests: FaultyRequest[] = [];
  const state: FaultyModelFiles = {
    plan: initial,
    requests,
    counts: () => requests.reduce<Record<string, number>>((counts, request) => ({ ...counts, [request.file]: (counts[request.file] ?? 0) + 1 }), {}),
    plugin: {
      name: "faulty-model-files",
      configureServer(server) {
        server.middlewares.use((request, response, next) => {
          const match = /^\/faulty\/test\/([\w-]+)\/resolve\/main\/([^?]+)$/.exec(request.url ?? "");
          if (!match) return next();
          const [, id, path] = match as unknown as [string, string, string];
          const file = join(root, id, path);
          let whole: Buffer;
          try {
            whole = readFileSync(file);
          } catch {
            return next();
          }
          const plan = state.plan;
          const hit = plan.files === undefined || (typeof plan.files === "string" ? plan.files === path : plan.files.test(path));
          const fault: Fault = hit ? plan.fault : "good";
          const at = Math.floor((plan.at ?? 0.5) < 1 ? whole.length * (plan.at ?? 0.5) : (plan.at ?? 0));
          const trickleMs = plan.trickleMs ?? 0;
          const range = request.headers.range;
          const record = (status: number) => requests.push({ file: path, ...(range && { range }), status, fault });
          const etag = `"${whole.length}-${Math.floor(statSync(file).mtimeMs)}"`;
          response.setHeader("etag", etag);
          // Every GET reaches the server: counted, and never a stale faulty body from the HTTP cache.
          response.setHeader("cache-control", "no-store");

          if (fault === "html") {
            record(200);
            const page = Buffer.from("<!doctype html><html><body><div id=app></div></body></html>");
            response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.length });
            return void response.end(page);
          }
          let body = whole;
          if (fault === "bit-flip") {
            body = Buffer.from(whole);
            body[at] = body[at]! ^ 0xff;
          }
          let start = 0;
          const ranged = /^bytes=(\d+)-$/.exec(range ?? "");
          if (ranged && (plan.ranges ?? true)) start = Number(ranged[1]);
          const status = start > 0 ? 206 : 200;
          record(status);
          response.statusCode = status;
          response.setHeader("content-type", "application/octet-stream");
          response.setHeader("accept-ranges", (plan.ranges ?? true) ? "bytes" : "none");
          if (status === 206) response.setHeader("content-range", `bytes ${start}-${whole.length - 1}/${whole.length}`);
          const rest = body.subarray(start);
          switch (fault) {
            case "short":
              response.setHeader("content-length", Math.max(0, at - start));
              return void send(response, body.subarray(start, Math.max(start, at)), trickleMs);
            case "truncated-chunked":
              // No content-length: Node sends it chunked, and ends it cleanly.
              return void send(response, body.subarray(start, Math.max(start, at)), trickleMs);
            case "drop":
              response.setHeader("content-length", rest.length);
              return void send(response, body.subarray(start, Math.max(start, at)), trickleMs, () => response.socket?.destroy());
            default:
              response.setHeader("content-length", rest.length);
              return void send(response, rest, trickleMs);
          }
        });
      },
    },
  };
  return state;
}
