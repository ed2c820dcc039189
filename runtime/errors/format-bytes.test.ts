import { describe, expect, it } from "vitest";
import { engineErrorMessage } from "../../worker/engine-error-messages.js";
import { formatBytes, formatDownloaded } from "./format-bytes.js";

describe("formatBytes and formatDownloaded", () => {
  it("uses decimal units", () => {
    expect(formatBytes(400_000_000)).toBe("400 MB");
    expect(formatBytes(1_234_000_000)).toBe("1.2 GB");
    expect(formatBytes(900)).toBe("1 KB");
    expect(formatDownloaded(0.5, 1_200_000_000)).toBe("600 of 1,200 MB");
  });

  it("counts a download under 1 MB in kilobytes, not as 0 of 0 MB", () => {
    expect(formatDownloaded(0.5, 482_042)).toBe("241 of 482 KB");
    expect(formatDownloaded(1, 482_042)).toBe("482 of 482 KB");
    expect(formatDownloaded(0, 400)).toBe("0 of 1 KB");
  });

  it("is the one the worker's sentences use, so an error says a size as the download card does", () => {
    const sentence = engineErrorMessage({ code: "quota_exceeded", neededBytes: 1_234_000_000, freeBytes: 400_000_000 }, "Qwen3 0.6B");
    expect(sentence).toContain("it needs 1.2 GB and 400 MB is free");
  });
});
