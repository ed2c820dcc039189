import { fromBase64Url, toBase64Url } from "./base64url.js";
import type { TurnstileOptions } from "./verify-turnstile.js";

/** What `createChatHandler({ session })` takes. */
export interface ChatSessionOptions {
  /**
   * The key that signs session cookies: at least 32 characters, kept on the
   * server (for example `openssl rand -base64 32` in an environment variable).
   * Every instance behind one site needs the same secret.
   */
  secret: string;
  /** Milliseconds a session lasts. Default `86_400_000` (24 hours). */
  ttl?: number;
  /** The cookie's name. Default `"webmcp_agents_session"`. */
  cookieName?: string;
  /** Require a Cloudflare Turnstile token on the GET that starts a session. Default: not required. */
  turnstile?: TurnstileOptions;
}

/** Signs and reads session cookies. */
export interface SessionCookies {
  /** A new session: its id and the `Set-Cookie` header value. */
  issue(request: Request): Promise<{ id: string; setCookie: string }>;
  /** The session id of a valid, unexpired cookie on `request`; undefined otherwise. */
  read(request: Request): Promise<string | undefined>;
}

const encoder = new TextEncoder();

/**
 * Session cookies signed with HMAC-SHA256 (Web Crypto, so it runs on edge
 * runtimes too): `<id>.<expiry>.<signature>`, HttpOnly, SameSite=Lax, Path
 * the endpoint's path, Secure when the endpoint is https. Stateless: any
 * instance with the same secret reads any instance's cookie.
 *
 * @throws TypeError when the secret is shorter than 32 characters or the ttl is not positive.
 */
export function createSessionCookies(options: ChatSessionOptions, now: () => number = Date.now): SessionCookies {
  if (typeof options.secret !== "string" || options.secret.length < 32) {
    throw new TypeError(
      "session.secret must be at least 32 characters; generate one with `openssl rand -base64 32` and keep it in an environment variable.",
    );
  }
  const ttl = options.ttl ?? 86_400_000;
  if (!Number.isFinite(ttl) || ttl <= 0) throw new TypeError(`session.ttl must be a positive number of milliseconds; got ${ttl}.`);
  const name = options.cookieName ?? "webmcp_agents_session";
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () =>
    (key ??= crypto.subtle.importKey("raw", encoder.encode(options.secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]));

  return {
    async issue(request) {
      const id = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
      const payload = `${id}.${(now() + ttl).toString(36)}`;
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(), encoder.encode(payload)));
      const url = new URL(request.url);
      const attributes = [
        `${name}=${payload}.${toBase64Url(signature)}`,
        `Path=${url.pathname}`,
        `Max-Age=${Math.floor(ttl / 1000)}`,
        "HttpOnly",
        "SameSite=Lax",
      ];
      if (url.protocol === "https:") attributes.push("Secure");
      return { id, setCookie: attributes.join("; ") };
    },

    async read(request) {
      const value = readCookie(request.headers.get("cookie"), name);
      const [id, expiry, signature, extra] = value?.split(".") ?? [];
      if (id === undefined || expiry === undefined || signature === undefined || extra !== undefined) return undefined;
      const expiresAt = Number.parseInt(expiry, 36);
      if (!Number.isFinite(expiresAt) || expiresAt <= now()) return undefined;
      const signatureBytes = fromBase64Url(signature);
      if (signatureBytes === undefined) return undefined;
      // verify() compares in constant time.
      const valid = await crypto.subtle.verify("HMAC", await hmacKey(), signatureBytes, encoder.encode(`${id}.${expiry}`));
      return valid ? id : undefined;
    },
  };
}

function readCookie(header: string | null, name: string): string | undefined {
  for (const pair of header?.split(";") ?? []) {
    const index = pair.indexOf("=");
    if (index > 0 && pair.slice(0, index).trim() === name) return pair.slice(index + 1).trim();
  }
  return undefined;
}
