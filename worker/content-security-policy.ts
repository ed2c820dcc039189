/**
 * A Content-Security-Policy header read as data: enough to ask whether a
 * source may load under a directive, with the directives' fallbacks (CSP 3).
 * A header may hold several policies (comma-separated, or several headers
 * joined by the browser): a source must pass every one of them.
 */
export type ContentSecurityPolicy = ReadonlyMap<string, readonly string[]>;

/** Each policy of a header value: directive name (lower case) to its sources as written (keywords lower-cased). */
export function parseContentSecurityPolicy(header: string | null | undefined): ContentSecurityPolicy[] {
  if (!header) return [];
  return header
    .split(",")
    .map((policy) => {
      const directives = new Map<string, string[]>();
      for (const part of policy.split(";")) {
        const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
        // The first of two same-named directives wins (CSP 3, "parse a serialized CSP").
        if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources.map((source) => (source.startsWith("'") ? source.toLowerCase() : source)));
      }
      return directives;
    })
    .filter((policy) => policy.size > 0);
}

/** Which directive governs a fetch, then what it falls back to (CSP 3, "get the effective directive"). */
const FALLBACKS: Readonly<Record<string, readonly string[]>> = {
  "script-src-elem": ["script-src-elem", "script-src", "default-src"],
  "worker-src": ["worker-src", "child-src", "script-src", "default-src"],
  "connect-src": ["connect-src", "default-src"],
  "script-src": ["script-src", "default-src"],
};

/** The source list that applies to `directive` in `policy`, or undefined where nothing restricts it. */
export function effectiveSources(policy: ContentSecurityPolicy, directive: string): readonly string[] | undefined {
  for (const name of FALLBACKS[directive] ?? [directive, "default-src"]) {
    const sources = policy.get(name);
    if (sources) return sources;
  }
  return undefined;
}

/**
 * Whether every policy lets `directive` load from a scheme such as `blob:`,
 * or use a keyword, named as such: no wildcard or host matches those (`*`
 * never covers `blob:`), so a membership test is exact here.
 */
export function policiesAllow(policies: readonly ContentSecurityPolicy[], directive: string, source: string): boolean {
  const wanted = source.toLowerCase();
  return policies.every((policy) => {
    const sources = effectiveSources(policy, directive);
    return !sources || sources.some((entry) => entry.toLowerCase() === wanted);
  });
}
