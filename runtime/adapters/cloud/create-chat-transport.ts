import type { ChatErrorBody, ChatRequestBody } from "../../server/chat-wire.js";
import { abortable } from "../abortable.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import type { AvailabilityCheck } from "./create-availability-check.js";
import { httpErrorPart, type ErrorPart } from "./http-error-part.js";

export interface ChatTransportOptions {
  api: string;
  fetch: typeof fetch;
  /** The caller's extra headers, read for each request. */
  headers: () => Record<string, string>;
  /** Headers for the GET that starts a session; awaited only on a 401 `session_required`. */
  sessionHeaders?: () => Record<string, string> | Promise<Record<string, string>>;
  availability: AvailabilityCheck;
}

/** What one POST came to: the step's event stream, or the error part that ends the run. */
export type StepResponse = { ok: true; body: ReadableStream<Uint8Array> | null } | { ok: false; error: ErrorPart };

/** POSTs model steps, starting a chat session when the server asks for one. */
export interface ChatTransport {
  /** Rejects only with an `AbortError`, when `signal` aborts. */
  post(body: ChatRequestBody, signal: AbortSignal): Promise<StepResponse>;
}

const readErrorBody = async (response: Response): Promise<Partial<ChatErrorBody> | undefined> => {
  try {
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null ? (body as Partial<ChatErrorBody>) : undefined;
  } catch {
    return undefined;
  }
};

const networkError = (): StepResponse => ({ ok: false, error: { type: "error", error: CLOUD_MESSAGES.unreachable, code: "network" } });
const sessionError = (): StepResponse => ({ ok: false, error: { type: "error", error: CLOUD_MESSAGES.sessionFailed, code: "session_required" } });

/**
 * The HTTP half of `createCloudAdapter`. A 401 `session_required` makes it
 * GET `api` again (with `sessionHeaders` awaited) and retry the POST once; if
 * that fails too, the error is "Couldn't start a chat session. Reload the
 * page and try again." Concurrent runs (a sub-agent's, another tab's chat on
 * the same adapter) share one session start, so one bot check serves them all.
 */
export function createChatTransport(options: ChatTransportOptions): ChatTransport {
  const { availability } = options;
  let sessionStart: Promise<"started" | "failed" | "unreachable"> | undefined;

  async function startSession(): Promise<"started" | "failed" | "unreachable"> {
    let extraHeaders: Record<string, string> = {};
    if (options.sessionHeaders) {
      try {
        extraHeaders = { ...(await options.sessionHeaders()) };
      } catch (error) {
        console.error("createCloudAdapter: sessionHeaders threw, so no chat session could start.", error);
        return "failed";
      }
    }
    const result = await availability.check(extraHeaders);
    return result === "unreachable" ? "unreachable" : "started";
  }

  const send = (body: string, signal: AbortSignal): Promise<Response> => {
    const headers = new Headers(options.headers());
    headers.set("accept", "text/event-stream");
    headers.set("content-type", "application/json");
    return abortable(Promise.resolve().then(() => options.fetch(options.api, { method: "POST", headers, body, signal })), signal);
  };

  async function attempt(body: string, signal: AbortSignal): Promise<Response | undefined> {
    try {
      return await send(body, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
  }

  return {
    async post(request, signal) {
      const body = JSON.stringify(request);
      let response = await attempt(body, signal);
      if (!response) return networkError();
      if (response.status === 401) {
        const errorBody = await abortable(readErrorBody(response), signal);
        if (errorBody?.error === "session_required") {
          sessionStart ??= startSession().finally(() => {
            sessionStart = undefined;
          });
          const started = await abortable(sessionStart, signal);
          if (started === "failed") return sessionError();
          if (started === "unreachable") return networkError();
          response = await attempt(body, signal);
          if (!response) return networkError();
          if (response.status === 401) return sessionError();
        } else {
          return sessionError();
        }
      }
      if (!response.ok) {
        const errorBody = await abortable(readErrorBody(response), signal);
        const error = httpErrorPart(response.status, errorBody, response.headers.get("retry-after"));
        if (error.code === "chat_disabled") availability.set({ state: "unavailable", reason: CLOUD_MESSAGES.notConfigured });
        return { ok: false, error };
      }
      const type = response.headers.get("content-type");
      if (type !== null && !type.includes("text/event-stream")) {
        response.body?.cancel().catch(() => {});
        return { ok: false, error: { type: "error", error: CLOUD_MESSAGES.unreadable, code: "network" } };
      }
      availability.set({ state: "ready" });
      return { ok: true, body: response.body };
    },
  };
}
