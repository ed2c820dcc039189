import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EngineError } from "./engine-error.js";
import { verifyingStream } from "./verifying-stream.js";

const chunks = [new Uint8Array([1, 2, 3]), new Uint8Array(70_000).fill(7), new Uint8Array([9])];
const whole = Buffer.concat(chunks);
const digest = createHash("sha256").update(whole).digest("hex");

async function pipe(expected: Parameters<typeof verifyingStream>[0]) {
  const seen: number[] = [];
  const { stream, file } = verifyingStream(expected, (bytes) => seen.push(bytes));
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk));
      controller.close();
    },
  });
  const outcome = await new Response(source.pipeThrough(stream)).arrayBuffer().then(
    (buffer) => ({ body: new Uint8Array(buffer) }),
    (error: unknown) => ({ error }),
  );
  return { outcome, file, seen };
}

describe("verifyingStream", () => {
  it("passes every byte through, reports each chunk, and hashes the file as node:crypto does", async () => {
    const { outcome, file, seen } = await pipe({ path: "onnx/model.onnx", bytes: whole.length, sha256: digest.toUpperCase() });
    expect("body" in outcome && Buffer.from(outcome.body).equals(whole)).toBe(true);
    expect(seen).toEqual([3, 70_000, 1]);
    expect(file).toEqual({ bytes: whole.length, sha256: digest });
  });

  it("hashes a file with nothing to check it against", async () => {
    const { file } = await pipe({ path: "config.json" });
    expect(file).toEqual({ bytes: whole.length, sha256: digest });
  });

  it("errors at the end on a wrong size, so the consumer never gets a whole body", async () => {
    const { outcome, file } = await pipe({ path: "onnx/model.onnx", bytes: whole.length + 1 });
    expect("error" in outcome).toBe(true);
    expect(file.error).toBeInstanceOf(EngineError);
    expect(file.error).toMatchObject({ code: "integrity_failed", message: `onnx/model.onnx has ${whole.length} bytes, expected ${whole.length + 1}.` });
  });

  it("errors at the end on a wrong sha256", async () => {
    const { outcome, file } = await pipe({ path: "onnx/model.onnx", bytes: whole.length, sha256: "0".repeat(64) });
    expect("error" in outcome).toBe(true);
    expect(file.error).toMatchObject({ code: "integrity_failed", message: "onnx/model.onnx does not match its sha256: the download was corrupted." });
  });
});
