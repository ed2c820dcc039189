import type { AgentAdapter, AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { createAvailabilityCheck } from "./create-availability-check.js";
import type { CloudRunContext } from "./run-cloud-steps.js";

type CloudRunModule = typeof import("./cloud-run.js");

/** What `createCloudAdapter` takes. Every option is optional. */
export interface CloudAdapterOptions {
  /**
   * The chat endpoint. A GET reports whether chat is configured and which
   * model runs; a POST runs one model step (see `createChatHandler`).
   * Default `"/api/chat"`.
   */
  api?: string;
  /**
   * The adapter's id; the switcher remembers the person's choice by it. Set
   * one per endpoint when a page offers several cloud adapters. Default `"cloud"`.
   */
  id?: string;
  /**
   * Tool steps per user message. One more request follows the last step and
   * the server answers it without tools, so the model sums up. An agent's own
   * `maxSteps` wins. Keep it equal to the handler's `maxSteps`. Default `8` (`LIMITS.maxSteps`).
   */
  maxSteps?: number;
  /**
   * Extra request headers (auth, CSRF), or a function returning them for each
   * request. `content-type: application/json` is always sent with a POST.
   * Default: none.
   */
  headers?: Record<string, string> | (() => Record<string, string>);
  /**
   * Headers for the GET that starts a chat session, awaited only when the
   * server answers 401 `session_required`: a bot check's token, for example
   * `turnstileHeaders(...)`. A throw is logged, and the error reads "Couldn't
   * start a chat session. Reload the page and try again." Default: none.
   */
  sessionHeaders?: () => Record<string, string> | Promise<Record<string, string>>;
  /** The function that makes requests, for tests and custom transports. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * The name in the adapter switcher. Default: the label the endpoint's GET
   * reports (for example "GPT-5.5 (cloud)"), and "Cloud" until it answers.
   */
  label?: string;
}

function checkOptions(options: CloudAdapterOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError("createCloudAdapter takes an options object, or nothing.");
  const { api, id, maxSteps, headers, sessionHeaders, fetch, label } = options;
  if (api !== undefined && (typeof api !== "string" || api === "")) throw new TypeError("api must be a non-empty URL string, for example \"/api/chat\".");
  if (id !== undefined && (typeof id !== "string" || id === "")) throw new TypeError("id must be a non-empty string.");
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) throw new TypeError("maxSteps must be a positive integer.");
  if (headers !== undefined && typeof headers !== "function" && (typeof headers !== "object" || headers === null)) {
    throw new TypeError("headers must be an object of header names to values, or a function returning one.");
  }
  if (sessionHeaders !== undefined && typeof sessionHeaders !== "function") {
    throw new TypeError("sessionHeaders must be a function returning headers (or a promise of them), for example turnstileHeaders({ siteKey }).");
  }
  if (fetch !== undefined && typeof fetch !== "function") throw new TypeError("fetch must be a function like globalThis.fetch.");
  if (label !== undefined && (typeof label !== "string" || label === "")) throw new TypeError("label must be a non-empty string.");
}

/**
 * Creates an {@link AgentAdapter} backed by your `/api/chat` endpoint: the
 * model runs on your server and every tool call runs on the page, one at a
 * time. Create it once, at module scope.
 *
 * Status starts `loading`. The first `status()` call in a browser GETs `api`:
 * `{ enabled: true }` makes it `ready`; anything else `unavailable` ("Chat
 * isn't configured on this site."); a network failure `unavailable`
 * ("Couldn't reach the assistant. Check your connection and try again.").
 * After a failure a later `status()` call checks again, at most every 10 s;
 * `subscribe` listeners hear every change. A 503 `chat_disabled` during a run
 * turns the status `unavailable` too.
 *
 * Each step of a run POSTs `{ messages, tools, page: { url }, agent }` (the
 * agent's id only) and streams the reply back as stream parts; see
 * {@link runCloudSteps} for the loop and `createChatTransport` for the HTTP
 * errors and the 401 `session_required` retry. It has no `prepare` and no `models`.
 */
export function createCloudAdapter(options: CloudAdapterOptions = {}): AgentAdapter {
  checkOptions(options);
  const api = options.api ?? "/api/chat";
  // Looked up per call, so a page (or a test) that replaces fetch later is heard.
  const fetchFunction: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const headers = (): Record<string, string> => {
    if (typeof options.headers !== "function") return { ...options.headers };
    try {
      return { ...options.headers() };
    } catch (error) {
      // The server then answers as it does to a request without them (401, 403).
      console.error("createCloudAdapter: the headers function threw; sending the request without its headers.", error);
      return {};
    }
  };
  const availability = createAvailabilityCheck({ api, fetch: fetchFunction, headers, ...(options.label !== undefined && { label: options.label }) });
  // The run's code (transport, step loop, SSE) loads on the first run: the
  // first render needs only the availability check. One transport per
  // adapter, made then, keeps the session it negotiates across runs.
  let loading: Promise<CloudRunModule> | undefined;
  let context: CloudRunContext | undefined;
  async function* run(req: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
    let module: CloudRunModule;
    try {
      module = await (loading ??= import("./cloud-run.js"));
    } catch {
      loading = undefined; // the next run tries again
      yield { type: "error", error: CLOUD_MESSAGES.unreachable, code: "network" };
      return;
    }
    context ??= {
      transport: module.createChatTransport({
        api,
        fetch: fetchFunction,
        headers,
        availability,
        ...(options.sessionHeaders && { sessionHeaders: options.sessionHeaders }),
      }),
      availability,
      ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
    };
    yield* module.runCloudSteps(req, context);
  }

  return {
    id: options.id ?? "cloud",
    get label() {
      return availability.label;
    },
    status: () => availability.status(),
    subscribe: (listener) => availability.subscribe(listener),
    run,
  };
}
