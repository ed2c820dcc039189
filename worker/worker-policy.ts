import { parseContentSecurityPolicy, policiesAllow } from "./content-security-policy.js";

/**
 * Whether this worker may start scripts from `blob:` URLs, read from the
 * Content-Security-Policy of its own script's response (a worker loaded from
 * a URL runs under that policy, not the page's). Asked with a HEAD request
 * the HTTP cache or the site's service worker usually answers. True where
 * there is no policy, and where it cannot be read (offline with no cached
 * answer: the default transformers.js behaviour, as before).
 */
export async function workerAllowsBlobScripts(scriptUrl = (globalThis as { location?: { href: string } }).location?.href): Promise<boolean> {
  if (!scriptUrl || !/^https?:/.test(scriptUrl)) return true;
  try {
    const response = await fetch(scriptUrl, { method: "HEAD" });
    return policiesAllow(parseContentSecurityPolicy(response.headers.get("content-security-policy")), "script-src-elem", "blob:");
  } catch {
    return true;
  }
}
