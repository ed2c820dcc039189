import { ChatHttpError } from "./chat-http-error.js";

/** How a request's `Origin` relates to the endpoint. */
export type OriginMatch =
  /** No `Origin` header: not a cross-site browser request (curl, a server, a same-origin GET). */
  | "absent"
  /** The endpoint's own origin. */
  | "same"
  /** An origin in `allowedOrigins`: answered with CORS headers. */
  | "allowed";

/**
 * Normalises `allowedOrigins` entries to `scheme://host[:port]`.
 *
 * @throws TypeError for an entry that is not an absolute http(s) origin.
 */
export function normalizeOrigins(origins: readonly string[]): Set<string> {
  return new Set(
    origins.map((origin) => {
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        url = undefined;
      }
      if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
        throw new TypeError(
          `allowedOrigins: ${JSON.stringify(origin)} is not an origin; write it as "https://shop.example" (scheme, host and port only).`,
        );
      }
      return url.origin;
    }),
  );
}

/**
 * Checks the request's `Origin`: allowed when absent, equal to the
 * endpoint's own origin (from the request URL) or listed in `allowed`.
 *
 * @throws ChatHttpError 403 `forbidden_origin` for any other origin, `null` included.
 */
export function checkOrigin(request: Request, allowed: ReadonlySet<string>): OriginMatch {
  const origin = request.headers.get("origin");
  if (origin === null) return "absent";
  if (origin === new URL(request.url).origin) return "same";
  if (allowed.has(origin)) return "allowed";
  throw new ChatHttpError(
    403,
    "forbidden_origin",
    "This chat endpoint doesn't accept requests from other sites. Add the site to allowedOrigins to allow it.",
  );
}

/** The CORS headers for a response to an origin in `allowedOrigins`. */
export function corsHeaders(request: Request): Record<string, string> {
  return {
    "access-control-allow-origin": request.headers.get("origin") ?? "",
    "access-control-allow-credentials": "true",
    vary: "Origin",
  };
}
