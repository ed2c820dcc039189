import type { RunErrorCode } from "../../errors/error-codes.js";

/** When the Prompt API failed: setting the model up (the download, the first session), or answering. */
export type BuiltInPhase = "setup" | "run";

/** A failure as the person reads it: a sentence with the next step, and the code the widget acts on. */
export interface DescribedError {
  error: string;
  code: RunErrorCode;
}

const nameOf = (error: unknown): string => (typeof error === "object" && error !== null && typeof (error as { name?: unknown }).name === "string" ? (error as { name: string }).name : "");

/**
 * The Prompt API's rejections (DOMExceptions, by `name`) in the error
 * model's words, never the browser's own message: `QuotaExceededError`
 * while answering is a conversation that does not fit the context window
 * even without its oldest turns (`context_overflow`), while downloading a
 * disk without room (`quota_exceeded`); `NetworkError` a download that did
 * not finish; `NotSupportedError` a request the model cannot take (a
 * language); anything else a model that failed while answering or starting.
 */
export function describeBuiltInError(error: unknown, phase: BuiltInPhase): DescribedError {
  switch (nameOf(error)) {
    case "QuotaExceededError":
      return phase === "run"
        ? { error: "This conversation no longer fits the browser's built-in model, even without its earliest turns. Start a new chat, or use another model.", code: "context_overflow" }
        : { error: "The browser has no room on this device for its built-in model (Chrome needs about 22 GB free). Free some space, or use another model.", code: "quota_exceeded" };
    case "NetworkError":
      return { error: "The browser could not download its built-in model. Check your connection, then try again.", code: "download_failed" };
    case "NotSupportedError":
      return { error: "The browser's built-in model cannot take this request here (its language or form). Use another model.", code: "unsupported_device" };
    case "NotAllowedError":
      // Sticky activation: any earlier click or key press on the page will do, and Download's click is one.
      return { error: "The browser downloads its model only once you have clicked or typed on this page. Press Download to start it.", code: "not_cached" };
    default:
      return phase === "run"
        ? { error: "The browser's built-in model failed while answering. Try again, or use another model.", code: "generation_failed" }
        : { error: "The browser's built-in model could not start. Try again, or use another model.", code: "load_failed" };
  }
}
