/**
 * The docs site as a reader gets it: built with `vitepress build` (into
 * test-results/, so a build of your own in docs/.vitepress/dist is left
 * alone), served by a tiny static server on 127.0.0.1 with the clean URLs
 * the site links with, and read in one headless Chromium, a test a page:
 * no console error or page error, no internal link to a page or an
 * anchor that is not there, no sideways scroll at 1280 and at 390 px, no
 * serious or critical axe-core violation; then the local search finds each
 * API page by its name. axe reads the whole page on the first page of each
 * section (/, /guide/, /api/: the nav, sidebar and footer are one theme)
 * and each page's own content (.VPDoc) on the rest: the chrome read again on
 * every page took about 40% of the file's time and could find nothing new.
 */
import AxeBuilder from "@axe-core/playwright";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(root, "test-results", "docs-site");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/** Every file under a folder, relative to it, with `/` separators. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path).map((file) => `${entry.name}/${file}`) : [entry.name];
  });
}

/** The file a clean URL names: `/guide/bench` is guide/bench.html, `/` is index.html. */
function fileFor(pathname: string): string | undefined {
  const path = decodeURIComponent(pathname);
  const candidates = path.endsWith("/") ? [`${path}index.html`] : [path, `${path}.html`, `${path}/index.html`];
  for (const candidate of candidates) {
    const file = resolve(outDir, `.${candidate}`);
    if (!file.startsWith(outDir + sep)) return undefined;
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    const file = fileFor(new URL(request.url ?? "/", "http://localhost").pathname);
    if (!file) {
      response.writeHead(404, { "content-type": TYPES[".html"] });
      response.end(readFileSync(join(outDir, "404.html")));
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

/** A page's clean URL path from its built file: guide/bench.html is /guide/bench. */
const pathOf = (file: string) => `/${file.replace(/(^|\/)index\.html$/, "$1").replace(/\.html$/, "")}`;

/** The horizontal overflow of the page as it is now, or undefined without. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.scrollWidth;
    return width > window.innerWidth ? `${width} px wide in ${window.innerWidth}` : undefined;
  });

/** The site's pages from their sources, as clean URL paths (docs/guide/bench.md is /guide/bench, docs/index.md is /): known before the build, so each is a test of its own. */
const SOURCE_PAGES = filesUnder(join(root, "docs"))
  .filter((file) => file.endsWith(".md") && !file.startsWith(".vitepress/"))
  .map((file) => pathOf(file.replace(/\.md$/, ".html")));

describe("the docs site, built and served", () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  let pages: string[];

  beforeAll(async () => {
    await promisify(execFile)(join(root, "node_modules", ".bin", "vitepress"), ["build", "docs", "--outDir", outDir], { cwd: root });
    pages = filesUnder(outDir)
      .filter((file) => file.endsWith(".html") && file !== "404.html")
      .map(pathOf)
      .sort();
    server = await serve();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await new Promise((done) => server.close(done));
  });

  // One test a page, each with its own ceiling (a failure names its page); the links are checked once all are read.
  const ids = new Map<string, Set<string>>();
  /** Sections whose first page axe has read whole (the section is the path's first segment). */
  const chromeChecked = new Set<string>();
  const links: { from: string; href: string }[] = [];
  let reader: { page: Page; problems: string[]; current: string };

  it("builds a page for every docs page", async () => {
    expect(pages).toEqual([...SOURCE_PAGES].sort());
    expect(pages.filter((path) => path.startsWith("/api/")).length).toBeGreaterThanOrEqual(20);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    reader = { page: await context.newPage(), problems: [], current: "" };
    reader.page.on("console", (message) => {
      if (message.type() === "error") reader.problems.push(`${reader.current}: console error: ${message.text()}`);
    });
    reader.page.on("pageerror", (error) => reader.problems.push(`${reader.current}: page error: ${error.message}`));
  });

  it.each(SOURCE_PAGES)("%s loads without errors, has no sideways scroll at 1280 and 390 px, and no serious axe violation", async (path) => {
    const { page } = reader;
    reader.current = path;
    reader.problems = [];
    await page.setViewportSize({ width: 1280, height: 900 });
    const response = await page.goto(`${origin}${path}`, { waitUntil: "load" });
    if (response?.status() !== 200) reader.problems.push(`${path}: HTTP ${response?.status()}`);
    await page.locator(".VPContent").waitFor();
    const found = await page.evaluate(() => ({
      ids: [...document.querySelectorAll("[id]")].map((element) => element.id),
      hrefs: [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].map((anchor) => anchor.href),
    }));
    ids.set(path, new Set(found.ids));
    for (const href of found.hrefs) if (href.startsWith(origin)) links.push({ from: path, href });
    const wide = await sidewaysScroll(page);
    if (wide) reader.problems.push(`${path} at 1280 px: ${wide}`);
    const section = path.split("/")[1]!;
    const whole = !chromeChecked.has(section);
    chromeChecked.add(section);
    // Legacy mode: axe.run in the page, not a blank page per analysis for cross-origin frames (the site has none).
    const builder = new AxeBuilder({ page }).setLegacyMode();
    const axe = await (whole ? builder : builder.include(".VPDoc")).analyze();
    for (const violation of axe.violations) {
      if (violation.impact === "serious" || violation.impact === "critical") {
        reader.problems.push(`${path}: axe ${violation.id} (${violation.impact}): ${violation.nodes.map((node) => JSON.stringify(node.target)).join(", ")}`);
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const narrow = await sidewaysScroll(page);
    if (narrow) reader.problems.push(`${path} at 390 px: ${narrow}`);
    expect(reader.problems).toEqual([]);
  }, 60_000);

  it("every page links only to pages and anchors that exist", async () => {
    expect(ids.size).toBe(SOURCE_PAGES.length);
    const problems: string[] = [];
    for (const { from, href } of links) {
      const url = new URL(href);
      if (url.pathname.startsWith("/assets/") || /\.\w+$/.test(url.pathname)) {
        if (!fileFor(url.pathname)) problems.push(`${from}: dead link ${url.pathname}`);
        continue;
      }
      const target = url.pathname.replace(/\.html$/, "").replace(/(.)\/$/, "$1");
      const anchors = ids.get(target);
      if (!anchors) problems.push(`${from}: dead link ${url.pathname}`);
      else if (url.hash && !anchors.has(decodeURIComponent(url.hash.slice(1)))) problems.push(`${from}: dead anchor ${url.pathname}${url.hash}`);
    }
    await reader.page.context().close();
    expect(problems).toEqual([]);
  });

  it("the local search finds each API page by its name", async () => {
    const apiPages = pages.filter((path) => path.startsWith("/api/"));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${origin}/`, { waitUntil: "load" });
    const missed: string[] = [];
    for (const path of apiPages) {
      const html = readFileSync(fileFor(path)!, "utf8");
      // The page's name: its h1, as the reader sees it (tags and the anchor's "#" left out).
      const name = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)![1]!.replace(/<a [^>]*>[\s\S]*?<\/a>/g, "").replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/\u200b/g, "").trim();
      if (!(await page.locator("#localsearch-input").isVisible())) await page.locator(".DocSearch-Button").first().click();
      await page.locator("#localsearch-input").fill(name);
      const hit = page.locator(`.VPLocalSearchBox a.result[href^="${path}"]`).first();
      try {
        await hit.waitFor({ timeout: 5_000 });
      } catch {
        missed.push(`${name} (${path})`);
      }
    }
    await context.close();
    expect(missed).toEqual([]);
  }, 180_000);
});
