import type { Browser, BrowserContext, Page } from "playwright-core";
import { installChrome160ModelContext } from "./chrome-160-model-context.js";
import { launchChromium } from "./launch-chromium.js";

/** Which `document.modelContext` a page gets. */
export type WebMcpEnvironment = "native" | "polyfill" | "chrome-160";

/** The three the runtime is kept right on: today's Chromium (156) with WebMCP, the polyfill, Chrome 160's Tool objects (the double). */
export const WEBMCP_ENVIRONMENTS: readonly { environment: WebMcpEnvironment; title: string }[] = [
  { environment: "native", title: "native WebMCP (Chromium 156, --enable-features=WebMCP)" },
  { environment: "polyfill", title: "@mcp-b/webmcp-polyfill (no native WebMCP)" },
  { environment: "chrome-160", title: "Chrome 160's Tool interface objects (runtime/test-support/chrome-160-model-context.ts)" },
];

/**
 * A browser and a context whose pages get `environment`'s model context:
 * Chromium launched with WebMCP for `native`; without it for the polyfill;
 * without it and the Chrome 160 double installed before any page script for
 * `chrome-160`.
 */
export async function openWebMcpEnvironment(environment: WebMcpEnvironment, contextOptions: Parameters<Browser["newContext"]>[0] = {}): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await launchChromium({ webmcp: environment === "native" });
  const context = await browser.newContext(contextOptions);
  if (environment === "chrome-160") await context.addInitScript({ content: `(${installChrome160ModelContext.toString()})();` });
  return { browser, context };
}

/** What the page's `document.modelContext` is, told from what it does: so a test knows it runs where it says. */
export function detectWebMcpEnvironment(page: Page): Promise<WebMcpEnvironment | "none"> {
  return page.evaluate(async () => {
    const context = (document as { modelContext?: { getTools(): Promise<unknown[]> } & Record<string, unknown> }).modelContext;
    if (!context) return "none";
    if (context.__isWebMCPPolyfill === true) return "polyfill";
    const [tool] = await context.getTools();
    // Chrome 160's Tool objects have no own properties (nothing to spread or stringify) and cannot be cloned;
    // Chromium 156's dictionaries have them (JSON.stringify would even fail on their window).
    if (typeof tool === "object" && tool !== null && Object.keys(tool).length === 0) {
      try {
        structuredClone(tool);
      } catch {
        return "chrome-160";
      }
    }
    return "native";
  });
}
