/**
 * Reading the docs site's Markdown for the checks that keep it in step with
 * the code: its pages, the tables under a heading, the names in a table's
 * first column.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
export const docsFolder = join(repositoryRoot, "docs");

/** Every Markdown page of the site (docs/.vitepress's cache and output left out). */
export function docsPages(folder = docsFolder): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.name.startsWith(".") || entry.name === "node_modules") return [];
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return docsPages(path);
      return entry.name.endsWith(".md") && entry.name !== "README.md" ? [path] : [];
    })
    .sort();
}

/** The page with code blocks blanked out, so a `#` or `|` in code is not a heading or a table. */
export function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, (code) => code.replace(/[^\n]/g, " "));
}

/**
 * The text under a heading (`## Options`, `### Turnstile`), down to the next
 * heading of the same or a higher level. Undefined when the page has none.
 */
export function section(markdown: string, heading: string): string | undefined {
  const lines = withoutCode(markdown).split("\n");
  const level = /^#+/.exec(heading)?.[0].length ?? 0;
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0 || level === 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && (/^#+/.exec(line)?.[0].length ?? 7) <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** The tables whose header starts with `| Name |`, each as the rows' first cells. */
export function nameTables(markdown: string): string[][] {
  const tables: string[][] = [];
  let current: string[] | undefined;
  for (const line of markdown.split("\n")) {
    if (/^\|\s*Name\s*\|/.test(line)) {
      current = [];
      tables.push(current);
    } else if (current && /^\|[\s-:|]+\|\s*$/.test(line)) {
      continue;
    } else if (current && line.startsWith("|")) {
      current.push(line.split("|")[1]!.trim());
    } else {
      current = undefined;
    }
  }
  return tables;
}

/**
 * The names a first cell gives: each code span, less a call's parentheses
 * (`` `label`, `brief` `` is two names; `` `toJSON()` `` is `toJSON`).
 */
export function cellNames(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/\(.*\)$/, "").trim());
}
