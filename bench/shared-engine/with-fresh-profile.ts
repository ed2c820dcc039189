import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { chromiumArgs, findChromium } from "../../runtime/test-support/launch-chromium.js";

/**
 * Runs `use` in a browser of its own with a new, empty profile on disk,
 * then closes it and deletes the profile (`webmcp`: Chromium's own WebMCP,
 * as multi-page.browser.test.ts runs the store). An off-the-record context keeps
 * the Cache API in memory and cannot hold the 0.6B-shaped model's 764 MB
 * (the download ends in "could not save"); a profile on disk can, and reads
 * the model back from disk as a person's browser does.
 */
export async function withFreshProfile<T>(use: (context: BrowserContext) => Promise<T>, options: { webmcp?: boolean } = {}): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), "bench-shared-"));
  try {
    // V8's optimizing WebAssembly tier on, as a person's browser has it.
    const args = chromiumArgs({ optimizeWasm: true, webmcp: options.webmcp === true });
    const context = await chromium.launchPersistentContext(profile, { executablePath: findChromium(), headless: true, args });
    try {
      return await use(context);
    } finally {
      await context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The browser version, from a throwaway profile. */
export const browserVersion = (): Promise<string> => withFreshProfile(async (context) => context.browser()?.version() ?? "unknown");
