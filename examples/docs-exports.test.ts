/**
 * Every name every entry exports has a docs entry. The entries are
 * package.json "exports", read from the source index files they build from
 * (tsconfig.json's "paths") with the TypeScript compiler, so a name added to
 * an index without a word in the docs fails here.
 *
 * A name has an entry when a docs page gives it
 * - in a heading (`## createCloudAdapter`, `### AgentAdapter`),
 * - in an import in the code under the page's `## Import` heading (the page
 *   is that name's home: its Options table, Returns and Notes describe it),
 * - as the first cell of a table row (an option, a type's field, a reference
 *   table of names with one line each), or
 * - as a code span in a list item under a heading with "Also exported" in it
 *   (`- \`CatalogFile\`: one file of a variant's download.`).
 *
 * A name in running prose or in an example only does not count: an entry says
 * what the name is.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { cellNames, docsPages, withoutCode } from "./test-support/docs-pages.js";
import { exportedSymbols, packageEntries, projectProgram } from "./test-support/entry-exports.js";

/** The names the given pages give an entry to, by the rules above. */
export function documentedNames(pages: readonly string[]): Set<string> {
  const names = new Set<string>();
  const identifiers = (text: string) => text.match(/[A-Za-z_$][\w$]*/g) ?? [];
  for (const page of pages) {
    const imports = /^## Import\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? "";
    for (const [, list] of imports.matchAll(/import(?: type)? \{([^}]*)\} from/g)) for (const name of identifiers(list!.replace(/\btype\b/g, ""))) names.add(name);
    let alsoExported = false;
    for (const line of withoutCode(page).split("\n")) {
      const heading = /^(#{1,6}) (.*)$/.exec(line);
      if (heading) {
        alsoExported = /Also exported/i.test(heading[2]!);
        for (const name of identifiers(heading[2]!.replace(/<[^>]*>/g, (tag) => ` ${tag.slice(1, -1)} `))) names.add(name);
      } else if (line.startsWith("|")) {
        for (const name of cellNames(line.split("|")[1] ?? "")) for (const part of name.split(/[.\s,]+/)) names.add(part);
      } else if (alsoExported && /^\s*[-*] /.test(line)) {
        for (const [, span] of line.matchAll(/`([^`]+)`/g)) for (const name of identifiers(span!)) names.add(name);
      }
    }
  }
  return names;
}

/** A program over index files given as text, for the planted case. */
function inMemoryExports(source: string): string[] {
  const fileName = `${process.cwd()}/planted-index.ts`;
  const host = ts.createCompilerHost({ strict: true });
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = ((exists) => (name: string) => name === fileName || exists(name))(host.fileExists.bind(host));
  host.getSourceFile = (name, language, ...rest) => (name === fileName ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  const program = ts.createProgram([fileName], { strict: true, noEmit: true, types: [] }, host);
  return [...exportedSymbols(program, fileName).keys()];
}

describe("every exported name has a docs entry", () => {
  it("fails on a planted name no page documents", () => {
    const exported = inMemoryExports(`
      export function createThing() {}
      export interface ThingOptions { a?: number }
      export const THING_LIMIT = 3;
      export function plantedInternal() {}
      export type { ThingOptions as ThingConfig };`);
    expect(exported.sort()).toEqual(["THING_LIMIT", "ThingConfig", "ThingOptions", "createThing", "plantedInternal"]);
    const page = [
      "# createThing",
      "",
      "## Import",
      "",
      "```ts",
      'import type { ThingOptions } from "thing";',
      "```",
      "",
      "## Example",
      "",
      "Uses `plantedInternal` in prose, which is no entry.",
      "",
      "```ts",
      "plantedInternal();",
      "```",
      "",
      "| Name | Type | Default | Description |",
      "|---|---|---|---|",
      "| `a` | `number` | `1` | A. |",
      "",
      "## Also exported",
      "",
      "- `THING_LIMIT`, `ThingConfig`: the limit, and the options' older name.",
    ].join("\n");
    const documented = documentedNames([page]);
    expect(exported.filter((name) => !documented.has(name))).toEqual(["plantedInternal"]);
  });

  it("each entry's names appear on a docs page", () => {
    const entries = packageEntries();
    const program = projectProgram(entries.map((entry) => entry.source));
    const documented = documentedNames(docsPages().map((page) => readFileSync(page, "utf8")));
    const missing: Record<string, string[]> = {};
    const counts: Record<string, number> = {};
    for (const entry of entries) {
      const names = [...exportedSymbols(program, entry.source).keys()].sort();
      counts[entry.specifier] = names.length;
      const undocumented = names.filter((name) => !documented.has(name));
      if (undocumented.length > 0) missing[entry.specifier] = undocumented;
    }
    console.log(`exported names per entry: ${JSON.stringify(counts)}`);
    expect(missing).toEqual({});
  }, 120_000);
});
