import { describe, expect, it } from "vitest";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { httpErrorPart, parseRetryAfter } from "./http-error-part.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Wed, 01 Jan 2025 02:00:00 GMT", now)).toBe(7200);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("reads a 429 whose Retry-After date is over an hour away as the daily limit", () => {
    expect(httpErrorPart(429, undefined, "Wed, 01 Jan 2025 01:00:01 GMT", now)).toEqual({ type: "error", error: CLOUD_MESSAGES.dailyLimit, code: "rate_limited" });
    expect(httpErrorPart(429, undefined, "3600", now)).toEqual({ type: "error", error: CLOUD_MESSAGES.rateLimited(3600), code: "rate_limited" });
  });

  it("words a one-second wait in the singular", () => {
    expect(CLOUD_MESSAGES.rateLimited(1)).toBe("You're sending messages too quickly. Wait a second and try again.");
  });
});
