import type { EngineErrorCode } from "../../../worker/protocol.js";

/** The `code` of an error rebuilt from `EngineErrorData`, when it has one. */
export function engineErrorCode(error: unknown): EngineErrorCode | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? (code as EngineErrorCode) : undefined;
}

const messageOf = (error: unknown) => (error instanceof Error || (typeof error === "object" && error !== null && "message" in error) ? String((error as { message: unknown }).message) : String(error));

/** A failed engine call as one sentence for the person, saying what to do next where there is something to do. */
export function describeEngineError(error: unknown): string {
  const message = messageOf(error);
  switch (engineErrorCode(error)) {
    case "worker_died":
      return `The on-device model stopped (the browser may have run out of memory): ${message} Send again to reload it.`;
    case "not_cached":
      return `The model is no longer on this device: ${message} Download it again.`;
    case "quota_exceeded":
    case "download_failed":
    case "integrity_failed":
    case "load_failed":
    case "unsupported_device":
      return message;
    default:
      return `The on-device model failed: ${message}`;
  }
}
