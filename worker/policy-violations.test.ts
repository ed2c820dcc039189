import { afterEach, describe, expect, it } from "vitest";
import { policyBlockMessage } from "./engine-error-messages.js";
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
  afterEach(forgetPolicyViolations);
  it("finds a violation reported after the failure, within its wait, and only one since the failure began", async () => {
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
});

describe("policyBlockMessage", () => {
  it("says what is blocked and what the site must add where, never the browser's words", () => {
    expect(policyBlockMessage({ directive: "script-src", allow: "'wasm-unsafe-eval'" })).toBe(
      "This site's Content-Security-Policy blocks WebAssembly, which the on-device model runs on: the site must add 'wasm-unsafe-eval' to script-src. Until then, use the cloud model.",
    );
    expect(policyBlockMessage({ directive: "connect-src", allow: "https://huggingface.co" }, "Qwen3 0.6B")).toBe(
      "This site's Content-Security-Policy blocks the download of Qwen3 0.6B from https://huggingface.co: the site must add https://huggingface.co to connect-src. Until then, use the cloud model.",
    );
  });
});
