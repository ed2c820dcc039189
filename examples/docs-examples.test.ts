/**
 * The docs site's examples as a reader copies them: every ```ts and ```tsx
 * block on every page under docs/ compiles as written, against the package's
 * public entries (mapped to their source, as tsconfig.json maps them), the
 * same way examples/readme.test.ts compiles the README's.
 *
 * A block that is deliberately a fragment (a line of an object, a call with
 * names from the surrounding prose) is marked by an HTML comment on the line
 * just before its fence, which the site does not render:
 *
 *     <!-- fragment -->
 *     ```ts
 *
 * A fragment is still shown, but not compiled. Keep them few: a fragment is a
 * place where the docs can drift.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { docsPages } from "./test-support/docs-pages.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const docs = join(root, "docs");

/** The marker a fragment carries on the line before its fence. */
export const FRAGMENT_MARKER = "<!-- fragment -->";

export interface CodeBlock {
  line: number;
  language: "ts" | "tsx";
  code: string;
  fragment: boolean;
}

/** A page's ts and tsx blocks, with the line each fence is on. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lineOf = (index: number) => markdown.slice(0, index).split("\n").length;
  return [...markdown.matchAll(/^```(ts|tsx)(?:[ \t][^\n]*)?\n([\s\S]*?)^```/gm)].map((match) => {
    const before = markdown.slice(0, match.index).replace(/\n$/, "");
    const previous = before.slice(before.lastIndexOf("\n") + 1).trim();
    return { line: lineOf(match.index), language: match[1] as "ts" | "tsx", code: match[2]!, fragment: previous === FRAGMENT_MARKER };
  });
}

/** Compiles each block as a module of its own; returns "page:line: message" for each problem. */
function compile(blocks: { page: string; block: CodeBlock }[], folder: string): string[] {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const files = blocks.map(({ page, block }, index) => {
    const name = relative(docs, page).replace(/[\\/]/g, "__").replace(/\.md$/, "");
    const file = join(folder, `${name}-line-${block.line}-${index}.${block.language}`);
    writeFileSync(file, `${block.code}\nexport {};\n`);
    return file;
  });
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config as object;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => !diagnostic.file || diagnostic.file.fileName.startsWith(folder))
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      if (!diagnostic.file) return message;
      const found = blocks[files.indexOf(resolve(diagnostic.file.fileName))];
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `${found ? relative(root, found.page) : "?"}:${(found?.block.line ?? 0) + 1 + line}: ${message}`;
    });
}

describe("docs/ code examples", () => {
  it("finds blocks, and tells a fragment by its marker", () => {
    const page = ["# A", "", "```ts", "const a = 1;", "```", "", FRAGMENT_MARKER, "```ts", "a.b(", "```", "", "```tsx title", "<div />", "```", "```js", "x", "```"].join("\n");
    const blocks = codeBlocks(page);
    expect(blocks.map((block) => [block.line, block.language, block.fragment])).toEqual([
      [3, "ts", false],
      [8, "ts", true],
      [12, "tsx", false],
    ]);
  });

  it("fails on a block that does not compile (the check can fail)", () => {
    const blocks = codeBlocks(["```ts", 'import { createCloudAdapter } from "@webmcp-agents/chat";', "createCloudAdapter({ apiUrl: 1 });", "```"].join("\n"));
    const problems = compile(
      blocks.map((block) => ({ page: join(docs, "planted.md"), block })),
      join(root, "test-results", "docs-blocks-planted"),
    );
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^docs\/planted\.md:3: /);
  }, 120_000);

  it("every ts and tsx block on every page compiles as written", () => {
    const blocks = docsPages().flatMap((page) => codeBlocks(readFileSync(page, "utf8")).map((block) => ({ page, block })));
    expect(blocks.length).toBeGreaterThanOrEqual(40);
    const compiled = blocks.filter(({ block }) => !block.fragment);
    // Fragments stay the exception.
    expect(blocks.length - compiled.length).toBeLessThanOrEqual(5);
    expect(compile(compiled, join(root, "test-results", "docs-blocks"))).toEqual([]);
  }, 180_000);
});
