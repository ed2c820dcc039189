import type { BrowserContext, Page } from "playwright-core";

/** How many of a page's last console lines a failure report shows. */
const CONSOLE_LINES = 25;

interface Watched {
  /** The page's last console lines and uncaught errors, oldest first. */
  lines: string[];
}

const live = new Map<Page, Watched>();

/**
 * Keeps the last console lines and uncaught errors of `page` until it
 * closes, so a test that fails or times out can say how far the page got
 * (`describeLivePages`), not only Playwright's "Timeout exceeded".
 */
export function watchPage(page: Page): void {
  if (live.has(page)) return;
  const watched: Watched = { lines: [] };
  const keep = (line: string) => {
    watched.lines.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
    if (watched.lines.length > CONSOLE_LINES) watched.lines.shift();
  };
  live.set(page, watched);
  page.on("console", (message) => keep(`[${message.type()}] ${message.text()}`));
  page.on("pageerror", (error) => keep(`[pageerror] ${error.message}`));
  page.on("crash", () => keep("[crash] the page crashed"));
  page.on("close", () => live.delete(page));
}

/** Watches every page `context` opens from now on. */
export function watchContext(context: BrowserContext): void {
  for (const page of context.pages()) watchPage(page);
  context.on("page", watchPage);
}

/** What a page shows of its progress: the body's data attributes, its status lines, and the document's title. */
function readProgress(): { title: string; body: Record<string, string | undefined>; status: string[] } {
  const status = [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live]')]
    .map((element) => (element.textContent ?? "").trim().slice(0, 200))
    .filter(Boolean)
    .slice(0, 8);
  return { title: document.title, body: { ...(document.body?.dataset ?? {}) }, status };
}

/**
 * Every open watched page: its URL, progress (body data attributes, status
 * lines) and last console lines. Never throws: a page that cannot answer in
 * two seconds (busy, crashed) is reported as such.
 */
export async function describeLivePages(): Promise<string> {
  const reports: string[] = [];
  for (const [page, watched] of live) {
    let progress: string;
    try {
      const read = page.evaluate(readProgress);
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer in 2 s")), 2_000).unref());
      progress = JSON.stringify(await Promise.race([read, timeout]));
    } catch (error) {
      progress = `(could not read the page: ${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
    }
    const console = watched.lines.length ? watched.lines.map((line) => `    ${line}`).join("\n") : "    (nothing logged)";
    reports.push(`  ${page.url()}\n    progress: ${progress}\n    console (last ${CONSOLE_LINES}):\n${console}`);
  }
  return reports.length ? `Open pages when the test failed:\n${reports.join("\n")}` : "";
}
