import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RUNTIME_VERSION } from "./runtime-version.js";

describe("RUNTIME_VERSION", () => {
  it("is package.json's version, so a report names the runtime that made it", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(RUNTIME_VERSION).toBe(manifest.version);
  });
});
