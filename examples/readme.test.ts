/**
 * The README as a newcomer meets it: every TypeScript code block compiles as
 * written, against the package's public entries (mapped to their source, as
 * tsconfig.json maps them), with nothing undefined; every link resolves inside
 * this repository (a heading, or a file that exists here); every image ships
 * in the npm tarball, where the npm page shows the README.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");
const lineOf = (index: number) => readme.slice(0, index).split("\n").length;

/** The README's ts and tsx blocks, with the line each starts on. */
function codeBlocks(): { line: number; language: string; code: string }[] {
  return [...readme.matchAll(/^```(ts|tsx)\n([\s\S]*?)^```/gm)].map((match) => ({ line: lineOf(match.index), language: match[1]!, code: match[2]! }));
}

/**
 * The README where links can be: code blocks and inline code blanked out
 * (a `[a](` in a code span is not a link), each character kept as a space
 * so that indexes still give line numbers.
 */
function linkText(): string {
  const blank = (code: string) => code.replace(/[^\n]/g, " ");
  return readme.replace(/^```[\s\S]*?^```/gm, blank).replace(/(`+)[^`\n](?:[^\n]*?[^`\n])?\1(?!`)/g, blank);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const prose = readme.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, text] of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = text!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

describe("README.md", () => {
  it("has TypeScript examples, each of which compiles as written", () => {
    const blocks = codeBlocks();
    // The README keeps its first example; the rest of the examples are on the
    // docs site, compiled by examples/docs-examples.test.ts.
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    // Inside the repository, so react, zod and @types/node resolve from its node_modules.
    const folder = join(root, "test-results", "readme-blocks");
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const files = blocks.map((block) => {
      const file = join(folder, `line-${block.line}.${block.language}`);
      // Each block is a module of its own (its names do not meet another block's).
      writeFileSync(file, `${block.code}\nexport {};\n`);
      return file;
    });
    const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config as object;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
    const program = ts.createProgram(files, { ...options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => !diagnostic.file || diagnostic.file.fileName.startsWith(folder))
      .map((diagnostic) => {
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
        if (!diagnostic.file) return message;
        const block = blocks[files.indexOf(resolve(diagnostic.file.fileName))];
        const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        return `README.md:${(block?.line ?? 0) + 1 + line}: ${message}`;
      });
    expect(problems).toEqual([]);
  }, 120_000);

  it("links only to its own headings and to files in this repository", () => {
    const headings = anchors();
    const prose = linkText();
    const broken: string[] = [];
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      const where = `README.md:${lineOf(match.index)} ${target}`;
      if (/^(https?|mailto):/.test(target)) continue;
      if (target.startsWith("#")) {
        if (!headings.has(target.slice(1))) broken.push(`${where}: no such heading`);
        continue;
      }
      const path = resolve(root, target.split("#")[0]!);
      if (relative(root, path).startsWith("..")) broken.push(`${where}: outside the repository`);
      else if (!existsSync(path)) broken.push(`${where}: no such file`);
    }
    expect(broken).toEqual([]);
  });

  it("ships every image it shows and every file it links to in the npm tarball, so its links work on the package too", () => {
    const prose = linkText();
    // Except the docs site's pages and the bench's figures: they live in the
    // repository (docs/ is the site's source, bench/ never ships), and the
    // README links into them as the map to the rest of the documentation.
    const repositoryOnly = (target: string) => /^docs\/.+\.md$/.test(target) || target === "bench/README.md";
    const images = [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s#]+)[^)]*\)/g)].map((match) => match[1]!).filter((target) => !/^(https?|mailto):/.test(target) && !repositoryOnly(target));
    expect(images.length).toBeGreaterThan(0);
    // --ignore-scripts: lists the files without running prepack's build.
    const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { files: { path: string }[] }[];
    const shipped = new Set(packed[0]!.files.map((file) => file.path));
    // A folder link is shipped when a file under it is.
    expect(images.filter((image) => !shipped.has(image) && ![...shipped].some((path) => image.endsWith("/") && path.startsWith(image)))).toEqual([]);
  }, 60_000);
});
