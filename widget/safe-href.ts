const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * `href` when it is safe to put in a link: http, https and mailto URLs, and
 * relative ones (resolved against the page). `undefined` for anything else
 * (`javascript:`, `data:`, `vbscript:`...), however it is spelled: the
 * check uses the URL parser, which sees through case, tabs and newlines.
 */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === "") return undefined;
  let parsed: URL;
  try {
    parsed = new URL(trimmed, "https://relative.invalid/");
  } catch {
    return undefined;
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? trimmed : undefined;
}
