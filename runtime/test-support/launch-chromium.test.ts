import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAYWRIGHT_DISABLED_FEATURES } from "./launch-chromium.js";

describe("launchChromium's --disable-features", () => {
  it("repeats every feature the installed Playwright disables (Chromium reads only the last --disable-features)", () => {
    const bundle = readFileSync(join(dirname(createRequire(import.meta.url).resolve("playwright-core/package.json")), "lib", "coreBundle.js"), "utf8");
    const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(bundle)?.[1];
    expect(list, "playwright-core's chromiumSwitches list was not found: read it and update PLAYWRIGHT_DISABLED_FEATURES").toBeDefined();
    const theirs = [...list!.matchAll(/^\s*"([^"]+)"/gm)].map((match) => match[1]);
    expect(theirs.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES.toSorted()).toEqual(theirs.toSorted());
  });
});
