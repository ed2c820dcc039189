import { afterEach, describe, expect, it, vi } from "vitest";
import { findViolation, forgetPolicyViolations, policyBlockOf, watchPolicyViolations } from "./policy-violations.js";

describe("policyBlockOf", () => {
  it("names the keyword for WebAssembly and eval, the scheme for blob: and data:, and the origin for a URL", () => {
    expect(policyBlockOf({ directive: "script-src", blocked: "wasm-eval" })).toEqual({ directive: "script-src", allow: "'wasm-unsafe-eval'" });
    expect(policyBlockOf({ directive: "script-src", blocked: "eval" })).toEqual({ directive: "script-src", allow: "'unsafe-eval'" });
    expect(policyBlockOf({ directive: "script-src-elem", blocked: "blob" })).toEqual({ directive: "script-src", allow: "blob:" });
    expect(policyBlockOf({ directive: "connect-src", blocked: "https://cas-bridge.xethub.hf.co/xet-bridge-us/abc?X-Amz=1" })).toEqual({ directive: "connect-src", allow: "https://cas-bridge.xethub.hf.co" });
    expect(policyBlockOf({ directive: "worker-src", blocked: "blob:https://shop.example/5f1c" })).toEqual({ directive: "worker-src", allow: "blob:" });
  });
  it("has nothing to say of an inline script or style (the page's own) or an empty report", () => {
    expect(policyBlockOf({ directive: "style-src-elem", blocked: "inline" })).toBeUndefined();
    expect(policyBlockOf({ directive: "script-src", blocked: "" })).toBeUndefined();
  });
});

describe("findViolation", () => {
  afterEach(() => {
    forgetPolicyViolations();
    vi.unstubAllGlobals();
  });
  it("finds a violation reported after the failure, within its wait, and only one since the failure began", async () => {
    // Node reports no violations; a browser has the event class, which is what the watch looks for.
    vi.stubGlobal("SecurityPolicyViolationEvent", class extends Event {});
    const scope = new EventTarget();
    watchPolicyViolations(scope);
    const report = (directive: string, blocked: string) => scope.dispatchEvent(Object.assign(new Event("securitypolicyviolation"), { effectiveDirective: directive, blockedURI: blocked }));
    report("connect-src", "https://old.example/a");
    const since = performance.now();
    const found = findViolation((seen) => seen.directive === "connect-src", since);
    setTimeout(() => report("connect-src", "https://huggingface.co/x"), 5);
    expect((await found)?.blocked).toBe("https://huggingface.co/x");
    expect(await findViolation((seen) => seen.directive === "script-src", since)).toBeUndefined();
  });
  it("watches nothing, and waits for nothing, where the platform reports no violations", async () => {
    const scope = new EventTarget();
    watchPolicyViolations(scope);
    scope.dispatchEvent(Object.assign(new Event("securitypolicyviolation"), { effectiveDirective: "connect-src", blockedURI: "https://a.example/" }));
    expect(await findViolation(() => true)).toBeUndefined();
  });
});
