/**
 * The examples and the README use the package as a site does: through its
 * public entries (`@webmcp-agents/chat`, `/runtime`, `/agent`, `/core`,
 * `/server`, `/testing`), their own relative files, and other npm packages,
 * never `../runtime/…` or `../widget/…`. The examples' dev-server plumbing
 * that builds and serves the repository's own test models is exempt (below).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import viteConfig from "../vite.config.js";
import elementConfig from "../vite.element.config.js";
import { PACKAGE_ENTRIES } from "./package-aliases.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const examples = join(root, "examples");

/**
 * Files that are the examples' server plumbing, not example code, and why
 * each may import the repository: examples-config.ts builds the test models
 * on start (models/test-models/, not shipped); model-files.ts serves them;
 * vite.config.ts (npm start's) adds the evals page, bench/evals/, which reads
 * the built test models.
 */
const PLUMBING = new Set(["examples-config.ts", "model-files.ts", "vite.config.ts"]);

const PACKAGE = "@webmcp-agents/chat";

/** Every module specifier `source` names: static, type-only, re-exports and dynamic `import()`. */
function specifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** Why `specifier` is not allowed in `file`, or undefined when it is. */
function problem(specifier: string, file: string): string | undefined {
  if (specifier === PACKAGE || specifier.startsWith(`${PACKAGE}/`)) {
    return specifier in PACKAGE_ENTRIES ? undefined : `${specifier} is not a public entry (${Object.keys(PACKAGE_ENTRIES).join(", ")})`;
  }
  if (!specifier.startsWith(".")) return undefined; // node:, react, vite, zod: what a site imports too
  const target = resolve(dirname(file), specifier);
  if (relative(examples, target).startsWith("..")) return `${specifier} reaches outside examples/; import the package by name`;
  return undefined;
}

function exampleFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    // test-support/ is the tests' own plumbing (serving the examples), not example code.
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : exampleFiles(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("public imports only", () => {
  it("in examples/ (but its server plumbing)", () => {
    const found: string[] = [];
    for (const file of exampleFiles(examples)) {
      const name = relative(examples, file);
      if (PLUMBING.has(name)) continue;
      for (const specifier of specifiers(readFileSync(file, "utf8"))) {
        const why = problem(specifier, file);
        if (why) found.push(`examples/${name}: ${why}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("in the bench's runtime path: the runtime through a public entry; only the engine baselines reach the worker", () => {
    const bench = join(root, "bench");
    const found: string[] = [];
    for (const file of exampleFiles(bench)) {
      const name = relative(bench, file);
      // The markdown bench measures the widget's own renderer against a copy of the old one: internal on purpose.
      if (name.startsWith("markdown/")) continue;
      // The session bench times the session's reducer per delta beside the session itself, in Node from source: internal too.
      if (name === "zero-cost/session-part-cost.ts") continue;
      // The evals page draws the report with the testing entry's own helpers: its rows, the size formatter, the global it is published under.
      const evalsInternals = name.startsWith("evals/") ? /^\.\.\/\.\.\/runtime\/(testing\/evals\/(eval-rows|publish-eval-report)|errors\/format-bytes)\.js$/ : undefined;
      for (const specifier of specifiers(readFileSync(file, "utf8"))) {
        // The runtime and the widget only by name; worker/ internals are what the raw baselines measure
        // (and the probe, the engine client); models/ test-model builders and test-support serve the bench.
        if (evalsInternals?.test(specifier)) continue;
        if (specifier.startsWith(".") && /(^|\/)(runtime\/(?!test-support\/)|widget\/)/.test(resolve(dirname(file), specifier).slice(root.length))) {
          found.push(`bench/${name}: ${specifier} reaches inside the runtime; import it from ${PACKAGE}/runtime`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("in the README's code blocks", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const found: string[] = [];
    for (const match of readme.matchAll(/^```(?:ts|tsx|js|jsx|mjs)\n([\s\S]*?)^```/gm)) {
      const line = readme.slice(0, match.index).split("\n").length;
      for (const specifier of specifiers(match[1]!)) {
        const internal = specifier.startsWith("..") || /(^|\/)(runtime|widget|worker|models|dist)\//.test(specifier);
        const why = internal ? `${specifier} is a path inside this repository` : problem(specifier, join(examples, "readme.ts"));
        if (why) found.push(`README.md, the code block at line ${line}: ${why}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("names each entry once, the same in package.json, tsconfig.json, the library builds and the aliases", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { types: string }> };
    const exported = Object.keys(manifest.exports).map((key) => (key === "." ? PACKAGE : `${PACKAGE}${key.slice(1)}`));
    expect(Object.keys(PACKAGE_ENTRIES).sort()).toEqual(exported.sort());
    for (const [key, target] of Object.entries(manifest.exports)) {
      const source = PACKAGE_ENTRIES[key === "." ? PACKAGE : `${PACKAGE}${key.slice(1)}`]!;
      expect(target.types, key).toBe(`./dist/types/${source.replace(/\.ts$/, ".d.ts")}`);
    }
    const tsconfig = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config as { compilerOptions: { paths: Record<string, string[]> } };
    expect(tsconfig.compilerOptions.paths).toEqual(Object.fromEntries(Object.entries(PACKAGE_ENTRIES).map(([name, source]) => [name, [`./${source}`]])));
    // The element's entry is built apart (vite.element.config.ts: React bundled into it).
    const entries = [viteConfig, elementConfig].flatMap((config) => {
      const lib = config.build?.lib;
      return lib && typeof lib.entry === "object" && !Array.isArray(lib.entry) ? Object.values(lib.entry) : [];
    });
    expect(entries.sort()).toEqual(Object.values(PACKAGE_ENTRIES).sort());
  });
});
