import type { BrowserContext, Page } from "playwright-core";

/** How many of a page's last console lines a failure report shows. */
const CONSOLE_LINES = 25;

interface Watched {
  /** The page's last console lines and uncaught errors, oldest first. */
  lines: string[];
  /** What the page showed as the test closed it (`closePagesFirst`), for a report after the close. */
  lastProgress?: string;
}

const live = new Map<Page, Watched>();
/** Pages closed since the last `forgetClosedPages`: a test closes its pages in `finally`, before a failure is reported. */
const closed: { url: string; watched: Watched }[] = [];

/**
 * Keeps the last console lines and uncaught errors of `page`, so a test
 * that fails or times out can say how far the page got
 * (`describePages`), not only Playwright's "Timeout exceeded". A page the
 * test closes (its `finally` runs before the failure is reported) is kept
 * until `forgetClosedPages`, with what it showed as it closed.
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
  page.on("close", () => {
    live.delete(page);
    closed.push({ url: page.url(), watched });
  });
  const close = page.close.bind(page);
  page.close = async (...parameters) => {
    await keepLastProgress([page]);
    return close(...parameters);
  };
}

/** Watches every page `context` opens from now on, and reads what they show before the context closes. */
export function watchContext(context: BrowserContext): void {
  for (const page of context.pages()) watchPage(page);
  context.on("page", watchPage);
  const close = context.close.bind(context);
  context.close = async (...parameters) => {
    await keepLastProgress(context.pages());
    return close(...parameters);
  };
}

/** Forgets the pages closed so far (after each test). */
export function forgetClosedPages(): void {
  closed.length = 0;
}

/**
 * What a page shows of its progress: the body's data attributes, its status
 * lines, its tool calls (`data-tool` and `data-state`, as the chat marks
 * them) and the document's title. Looks inside open shadow roots, where the
 * chat element renders.
 */
function readProgress(): { title: string; body: Record<string, string | undefined>; status: string[]; calls: string[] } {
  const roots: ParentNode[] = [document];
  for (let index = 0; index < roots.length && index < 50; index++) {
    for (const element of roots[index]!.querySelectorAll("*")) if (element.shadowRoot) roots.push(element.shadowRoot);
  }
  const all = (selector: string) => roots.flatMap((root) => [...root.querySelectorAll(selector)]);
  const status = all('[role="status"], [role="alert"], [aria-live]')
    .map((element) => (element.textContent ?? "").trim().slice(0, 200))
    .filter(Boolean)
    .slice(0, 8);
  const calls = all("[data-tool][data-state]").map((element) => `${element.getAttribute("data-tool")}:${element.getAttribute("data-state")}`);
  return { title: document.title, body: { ...(document.body?.dataset ?? {}) }, status, calls };
}

/** `readProgress` of `page` as JSON, or why it could not be read in two seconds (busy, crashed). Never throws. */
async function progressOf(page: Page): Promise<string> {
  try {
    const read = page.evaluate(readProgress);
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer in 2 s")), 2_000).unref());
    return JSON.stringify(await Promise.race([read, timeout]));
  } catch (error) {
    return `(could not read the page: ${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
  }
}

async function keepLastProgress(pages: Page[]): Promise<void> {
  await Promise.all(
    pages.map(async (page) => {
      const watched = live.get(page);
      if (watched && !page.isClosed()) watched.lastProgress = await progressOf(page);
    }),
  );
}

function report(url: string, progress: string, watched: Watched): string {
  const console = watched.lines.length ? watched.lines.map((line) => `    ${line}`).join("\n") : "    (nothing logged)";
  return `  ${url}\n    progress: ${progress}\n    console (last ${CONSOLE_LINES}):\n${console}`;
}

/**
 * Every watched page still open (its URL, progress and last console
 * lines), then every one closed since the last `forgetClosedPages`, with
 * what it showed as it closed. Never throws.
 */
export async function describePages(): Promise<string> {
  const reports: string[] = [];
  for (const [page, watched] of live) reports.push(report(page.url(), await progressOf(page), watched));
  const open = reports.length ? `Open pages when the test failed:\n${reports.join("\n")}` : "";
  const gone = closed.map(({ url, watched }) => report(url, watched.lastProgress ?? "(closed before it could be read)", watched));
  const shut = gone.length ? `Pages the test closed, as they were when it closed them:\n${gone.join("\n")}` : "";
  return [open, shut].filter(Boolean).join("\n");
}
