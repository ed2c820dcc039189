import type { LanguageModel } from "ai";
import type { WebAgent } from "../agent/index.js";
import type { ChatLogger } from "./chat-logger.js";
import type { ChatSessionOptions } from "./chat-session.js";
import type { CounterStore } from "./counter-store.js";
import type { DailyBudgetOptions } from "./daily-budget.js";
import type { RateLimitOptions } from "./rate-limit.js";

/** What `createChatHandler` takes. Only `model` is required; every limit has a safe default. */
export interface ChatHandlerOptions {
  /**
   * The model: a `"<provider>/<model>"` id that {@link resolveModel} resolves
   * with the key from the environment (`"openai/gpt-5.5"`,
   * `"openrouter/anthropic/claude-opus-5.5"`), or an AI SDK `LanguageModel`.
   * With an id whose key is not set, GET answers `enabled: false` and POST
   * 503 `chat_disabled`.
   */
  model: string | LanguageModel;
  /** The name GET reports for the adapter switcher. Default: from the model id, for example "GPT-5.5 (cloud)". */
  label?: string;
  /** Extra system prompt text, after the built-in one and before an agent's "About this site". Default: none. */
  system?: string;
  /**
   * The agents the browser may name, from `defineWebAgent` (sub-agents are
   * found through their parents). The browser sends only an id; an unknown
   * id is a 400. Their instructions, tool selection, `model` and `maxSteps`
   * apply on the server. Default `[]`.
   */
  agents?: readonly WebAgent[];
  /** Tool steps per user message before the step that must answer without tools; an agent's own `maxSteps` wins. Default `8`. */
  maxSteps?: number;
  /** Caps each step's output tokens (sent to the provider). Default: not set (the provider's default). */
  maxOutputTokens?: number;

  /** The largest request body in bytes; a bigger one is a 413 `payload_too_large`. Default `262_144` (256 KB). */
  maxBodyBytes?: number;
  /** The most messages a request may carry (400 `bad_request` past it). Default `200`. */
  maxMessages?: number;
  /** The most tools a request may carry (400 `bad_request` past it). Default `64`. */
  maxTools?: number;
  /**
   * Origins besides the endpoint's own that may call it from a browser
   * (answered with CORS headers, credentials allowed), as `"https://shop.example"`.
   * A request with any other `Origin` is a 403 `forbidden_origin`; one with no
   * `Origin` (not a browser's cross-site request) is let through.
   * Behind a proxy that rewrites `Host`, list the public origin here. Default `[]`.
   */
  allowedOrigins?: readonly string[];
  /**
   * Require a session: GET sets a signed, HttpOnly, SameSite=Lax cookie
   * (Secure on https), and a POST without a valid one is a 401
   * `session_required`. With `turnstile`, the GET that starts a session
   * must carry a Cloudflare Turnstile token. Default: no sessions.
   */
  session?: ChatSessionOptions;
  /**
   * Limit POSTs per client: 429 `rate_limited` with `Retry-After`. Without
   * sessions a client is its `clientKey`. With sessions and no Turnstile
   * (sessions free to mint), a POST counts against its session AND its
   * `clientKey`, and both must be under the limit, so minting a fresh cookie
   * per request does not get past it; people behind one address share its
   * limit. With Turnstile, a POST counts against its session only (each
   * session cost a solved challenge, and the session GETs count against the
   * `clientKey`). Fails open when the store is unreachable. Default: no limit.
   */
  rateLimit?: RateLimitOptions;
  /** Cap the site's model tokens per UTC day: 503 `busy` with reason `"daily_budget"`. Fails closed when the store is unreachable. Default: no cap. */
  dailyBudget?: DailyBudgetOptions;
  /** Where the rate limit, the budget and used Turnstile tokens are counted. Default: this process's memory ({@link createMemoryCounterStore}). */
  store?: CounterStore;
  /**
   * The rate-limit key of a client (every request without a session, and
   * with sessions that need no Turnstile), for example the client address
   * your proxy puts in a header. Default: the socket address
   * seen by `toNodeListener`, else `cf-connecting-ip`, `x-real-ip` or the first
   * `x-forwarded-for` entry, else one shared key.
   */
  clientKey?: (request: Request) => string | undefined;

  /**
   * Turns a model id (the handler's or an agent's) into a model; throw
   * {@link MissingApiKeyError} to have it reported as not configured.
   * Default: {@link resolveModel} with `env` and `fetch`.
   */
  resolveModel?: (id: string) => LanguageModel;
  /** Where the API keys are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The function model providers call their APIs with (tests, proxies). Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Where provider errors and store failures are reported. Default `console`. */
  logger?: ChatLogger;
}
