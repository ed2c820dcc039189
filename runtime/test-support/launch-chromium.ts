import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { watchContext } from "./page-diagnostics.js";

/** Flags that let Chromium start headless as root with no network. */
const BASE_FLAGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

/**
 * The features Playwright disables (playwright-core 1.65's chromiumSwitches),
 * repeated because Chromium reads only the last `--disable-features`:
 * launch-chromium.test.ts fails when Playwright's list changes.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Plus the omnibox popups' WebUI, which Chromium 156 keeps in a renderer of
 * its own even headless, where no omnibox is shown: 6 of the 57 CPU-seconds
 * of local-adapter.browser.test.ts, for nothing.
 */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/**
 * The Chromium to test with: `$CHROMIUM_PATH`, then Debian's, then
 * Playwright's own download for people who have one. Throws with the fix when
 * there is none, so browser tests fail loudly instead of being skipped.
 */
export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core has no browser of its own here.
  }
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (!found) {
    throw new Error("No Chromium found for the browser tests. Install it (apt-get install chromium) or set CHROMIUM_PATH.");
  }
  return found;
}

export interface LaunchOptions {
  /** Native WebMCP (`--enable-features=WebMCP`); without it pages use the polyfill. */
  webmcp?: boolean;
  /** WebGPU through SwiftShader (`--enable-unsafe-webgpu`). */
  webgpu?: boolean;
  /**
   * V8's optimizing WebAssembly tier (TurboFan), as a person's browser has it
   * (default false: Liftoff only). Every page that loads a model compiles ONNX
   * Runtime's wasm, and TurboFan compiled it again on background threads:
   * 17 of the 31 renderer CPU-seconds of local-adapter.browser.test.ts, for
   * test models too small to run faster for it. What runs is the same code;
   * a script that measures speed or memory turns it on.
   */
  optimizeWasm?: boolean;
}

/** The command-line flags for `options`: also for a persistent context, which `launchChromium` cannot make (bench/shared-engine/with-fresh-profile.ts). */
export function chromiumArgs(options: LaunchOptions = {}): string[] {
  const args = [...BASE_FLAGS, `--disable-features=${DISABLED_FEATURES.join(",")}`];
  if (options.webmcp) args.push("--enable-features=WebMCP");
  if (options.webgpu) args.push("--enable-unsafe-webgpu");
  if (!options.optimizeWasm) args.push("--js-flags=--liftoff-only");
  return args;
}

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs(options), headless: true });
  // Every page (browser.newPage goes through newContext too) keeps its last
  // console lines, so a failed test can say how far its pages got
  // (report-pages-on-failure.ts).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...parameters) => {
    const context = await newContext(...parameters);
    watchContext(context);
    return context;
  };
  return browser;
}
