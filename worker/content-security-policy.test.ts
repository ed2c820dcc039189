import { describe, expect, it } from "vitest";
import { effectiveSources, parseContentSecurityPolicy, policiesAllow } from "./content-security-policy.js";

describe("parseContentSecurityPolicy", () => {
  it("reads directives and sources, lower-cases names and keywords, and keeps the first of two same-named directives", () => {
    const [policy] = parseContentSecurityPolicy("Default-Src 'SELF'; script-src 'self' https://CDN.example ; script-src *; ;");
    expect([...policy!.keys()]).toEqual(["default-src", "script-src"]);
    expect(policy!.get("default-src")).toEqual(["'self'"]);
    expect(policy!.get("script-src")).toEqual(["'self'", "https://CDN.example"]);
  });

  it("splits a header that holds several policies, and reads none from an empty or missing header", () => {
    expect(parseContentSecurityPolicy("script-src 'self', connect-src 'none'")).toHaveLength(2);
    expect(parseContentSecurityPolicy("")).toEqual([]);
    expect(parseContentSecurityPolicy(null)).toEqual([]);
  });
});

describe("effectiveSources", () => {
  const [policy] = parseContentSecurityPolicy("default-src 'none'; script-src 'self'; child-src blob:");
  it("falls back as CSP 3 says: script-src-elem to script-src, worker-src to child-src, connect-src to default-src", () => {
    expect(effectiveSources(policy!, "script-src-elem")).toEqual(["'self'"]);
    expect(effectiveSources(policy!, "worker-src")).toEqual(["blob:"]);
    expect(effectiveSources(policy!, "connect-src")).toEqual(["'none'"]);
  });
  it("is undefined where nothing restricts the directive", () => {
    expect(effectiveSources(parseContentSecurityPolicy("img-src 'self'")[0]!, "script-src")).toBeUndefined();
  });
});

describe("policiesAllow", () => {
  it("needs the keyword or scheme in every policy; a wildcard never covers blob:", () => {
    const strict = parseContentSecurityPolicy("script-src 'self' *");
    expect(policiesAllow(strict, "script-src-elem", "blob:")).toBe(false);
    expect(policiesAllow(parseContentSecurityPolicy("script-src 'self' blob:"), "script-src-elem", "blob:")).toBe(true);
    expect(policiesAllow(parseContentSecurityPolicy("script-src 'self' blob:, default-src 'self'"), "script-src-elem", "blob:")).toBe(false);
  });
  it("reads a directive's fallback, and allows anything where no policy restricts it", () => {
    expect(policiesAllow(parseContentSecurityPolicy("default-src 'self'"), "script-src-elem", "blob:")).toBe(false);
    expect(policiesAllow(parseContentSecurityPolicy("img-src 'self'"), "script-src-elem", "blob:")).toBe(true);
    expect(policiesAllow([], "script-src-elem", "blob:")).toBe(true);
  });
});
