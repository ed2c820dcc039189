import { ChatHttpError } from "./chat-http-error.js";
import type { ChatLogger } from "./chat-logger.js";
import type { CounterStore } from "./counter-store.js";

/** What `createChatHandler({ session: { turnstile } })` takes. */
export interface TurnstileOptions {
  /** The widget's secret key, from the Cloudflare dashboard. Server only. */
  secretKey: string;
  /**
   * The action a token must carry (turnstileHeaders sends `"web_agents_chat"`
   * by default). Default: not checked.
   */
  action?: string;
  /**
   * Hostnames a token may have been solved on. Default: the endpoint's own
   * hostname and those of `allowedOrigins`.
   */
  hostnames?: readonly string[];
  /** The request header the token comes in. Default `"x-turnstile-token"`. */
  header?: string;
  /** Milliseconds to wait for Cloudflare's answer before failing closed. Default `5000`. */
  timeout?: number;
  /** The function that calls siteverify: for tests and custom transports. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** Everything {@link verifyTurnstile} needs for one token. */
export interface TurnstileCheck {
  token: string;
  secretKey: string;
  action: string | undefined;
  hostnames: ReadonlySet<string>;
  timeout: number;
  fetch: typeof fetch;
  /** Sent to Cloudflare as `remoteip` when known. */
  remoteIp: string | undefined;
  /** Remembers tokens already used. */
  store: CounterStore;
  logger: ChatLogger;
}

/** Cloudflare's siteverify endpoint. */
export const SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

// A token is valid for 300 s; remember used ones a little longer.
const TOKEN_MEMORY = 310_000;
// Cloudflare's documented maximum token length.
const MAX_TOKEN_LENGTH = 2048;

const failed = (why: string) =>
  new ChatHttpError(401, "session_required", `The bot check didn't pass (${why}). Reload the page and try again.`, {
    reason: "turnstile_failed",
  });

const unreachable = (cause: unknown) =>
  new ChatHttpError(503, "busy", "The bot check can't be verified right now. Try again in a minute.", {
    reason: "turnstile_unavailable",
    cause,
  });

/**
 * Verifies a Turnstile token with Cloudflare's siteverify, server side:
 * success, then the action (when configured) and the hostname. Each token
 * is accepted once, across instances when the store is shared. Fails closed:
 * when Cloudflare or the store cannot be reached, the session is refused.
 *
 * @throws ChatHttpError 401 `session_required` (reason `turnstile_failed`) for a
 *   token that does not pass; 503 `busy` (reason `turnstile_unavailable`)
 *   when it cannot be checked.
 */
export async function verifyTurnstile(check: TurnstileCheck): Promise<void> {
  const { token, logger } = check;
  if (token === "" || token.length > MAX_TOKEN_LENGTH) throw failed("the token is malformed");

  let uses: number;
  try {
    uses = await check.store.increment(`turnstile:${await sha256(token)}`, 1, TOKEN_MEMORY);
  } catch (error) {
    logger.error("webmcp-agents: the counter store is unreachable; refusing Turnstile tokens (fail closed)", error);
    throw unreachable(error);
  }
  if (uses > 1) throw failed("this token was already used");

  const form = new URLSearchParams({ secret: check.secretKey, response: token });
  if (check.remoteIp !== undefined) form.set("remoteip", check.remoteIp);
  let result: Record<string, unknown>;
  try {
    const abort = new AbortController();
    // Raced as well as signalled: a fetch that ignores its signal must not hold the request open.
    const body: unknown = await withTimeout(
      (async () => {
        const response = await check.fetch(SITEVERIFY_URL, { method: "POST", body: form, signal: abort.signal });
        if (!response.ok) throw new Error(`siteverify answered HTTP ${response.status}`);
        return (await response.json()) as unknown;
      })(),
      check.timeout,
      () => abort.abort(),
    );
    if (typeof body !== "object" || body === null) throw new Error("siteverify answered with no JSON object");
    result = body as Record<string, unknown>;
  } catch (error) {
    logger.error("webmcp-agents: Turnstile siteverify is unreachable; refusing the session (fail closed)", error);
    throw unreachable(error);
  }

  if (result.success !== true) {
    const codes = Array.isArray(result["error-codes"]) ? result["error-codes"].map(String) : [];
    logger.warn("webmcp-agents: a Turnstile token failed siteverify", codes);
    throw failed(codes.length > 0 ? `Cloudflare says ${codes.join(", ")}` : "Cloudflare refused the token");
  }
  if (check.action !== undefined && result.action !== check.action) {
    throw failed(`the token is for action ${JSON.stringify(result.action)}, not ${JSON.stringify(check.action)}`);
  }
  if (typeof result.hostname !== "string" || !check.hostnames.has(result.hostname)) {
    throw failed(`the token was solved on ${JSON.stringify(result.hostname)}, not on this site`);
  }
}

function withTimeout<T>(work: Promise<T>, milliseconds: number, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`siteverify did not answer within ${milliseconds} ms`));
    }, milliseconds);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
