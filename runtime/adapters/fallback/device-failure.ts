import { ENGINE_ERROR_CODES, type RunErrorCode } from "../../errors/error-codes.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";

/**
 * The run error codes that mean the device failed, not the request: every
 * on-device engine code (`ENGINE_ERROR_CODES`) but `aborted`, which is the
 * person's Stop and never an error. A crashed or terminated worker
 * (`worker_died`), a lost GPU device or memory running out mid-generation
 * (`generation_failed`), a model that fails to start (`load_failed`), no
 * room (`quota_exceeded`), the model's files gone (`not_cached`,
 * `download_failed`, `integrity_failed`) and a device that cannot run it
 * (`unsupported_device`).
 */
export const DEVICE_FAILURE_CODES: readonly RunErrorCode[] = ENGINE_ERROR_CODES.filter((code): code is Exclude<typeof code, "aborted"> => code !== "aborted");

/** Why the device stopped, in a few words for the switch notice. */
const WHY: Partial<Record<RunErrorCode, string>> = {
  worker_died: "its worker stopped",
  generation_failed: "the device failed while answering",
  load_failed: "the model could not start",
  quota_exceeded: "the device ran out of room",
  not_cached: "the model is not on this device",
  download_failed: "the model could not be downloaded",
  integrity_failed: "the model's files were damaged",
  unsupported_device: "this device cannot run it",
};

/** The one line the person reads when a turn moves on: `The on-device model stopped (its worker stopped); continuing with Cloud.` */
export function switchNoticeText(code: RunErrorCode | undefined, nextLabel: string): string {
  const why = code && WHY[code];
  return `The on-device model stopped${why ? ` (${why})` : ""}; continuing with ${nextLabel}.`;
}

/** Whether an `error` part is a device failure in `codes`. */
export function isDeviceFailure(part: Extract<AgentStreamPart, { type: "error" }>, codes: readonly RunErrorCode[]): boolean {
  return part.code !== undefined && codes.includes(part.code);
}
