import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { EngineError } from "./engine-error.js";

/** What a downloaded file must be: its size (when known exactly) and its sha256 (when the source pins one). */
export interface ExpectedFile {
  path: string;
  bytes?: number;
  sha256?: string;
}

/** What went through a {@link verifyingStream}, known once it has ended. */
export interface VerifiedFile {
  bytes: number;
  /** Hex SHA-256 of everything that went through. */
  sha256: string;
  /** Set at the end when the size or the hash is not the expected one; the stream errors with it. */
  error?: EngineError;
}

/**
 * A pass-through stream that counts and hashes a file on its way to the
 * cache, in chunks: no copy of the whole file is held (WebCrypto's digest
 * takes one buffer, and refuses one over 2 GB, the size of an fp32 0.6B
 * model's weights). At the end it checks the size and the sha256 and, when
 * either is wrong, errors instead of closing, so a consumer such as
 * `Cache.put` never commits the file.
 */
export function verifyingStream(expected: ExpectedFile, onChunk: (bytes: number) => void = () => {}): { stream: TransformStream<Uint8Array, Uint8Array>; file: VerifiedFile } {
  const hash = sha256.create();
  const file: VerifiedFile = { bytes: 0, sha256: "" };
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      hash.update(chunk);
      file.bytes += chunk.byteLength;
      onChunk(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush(controller) {
      file.sha256 = bytesToHex(hash.digest());
      if (expected.bytes !== undefined && file.bytes !== expected.bytes) {
        file.error = new EngineError({ code: "integrity_failed", message: `${expected.path} has ${file.bytes} bytes, expected ${expected.bytes}.`, file: expected.path, reason: "size_mismatch" });
      } else if (expected.sha256 !== undefined && expected.sha256.toLowerCase() !== file.sha256) {
        file.error = new EngineError({ code: "integrity_failed", message: `${expected.path} does not match its sha256: the download was corrupted.`, file: expected.path, reason: "hash_mismatch" });
      }
      if (file.error) controller.error(file.error);
    },
  });
  return { stream, file };
}
