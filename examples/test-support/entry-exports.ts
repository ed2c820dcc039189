/**
 * The package's entries as a site imports them: package.json "exports", each
 * mapped to the source index file it is built from (tsconfig.json's "paths"
 * say which), and the names each exports, read with the TypeScript compiler.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { repositoryRoot } from "./docs-pages.js";

export interface Entry {
  /** The import specifier: "@webmcp-agents/chat", "@webmcp-agents/chat/server". */
  specifier: string;
  /** The source index file it builds from, absolute. */
  source: string;
}

/** package.json's "exports", each with its source file from tsconfig.json's "paths". */
export function packageEntries(): Entry[] {
  const pkg = JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as { name: string; exports: Record<string, { types?: string }> };
  const config = ts.readConfigFile(join(repositoryRoot, "tsconfig.json"), ts.sys.readFile).config as { compilerOptions: { paths: Record<string, string[]> } };
  return Object.entries(pkg.exports).map(([key, target]) => {
    const specifier = key === "." ? pkg.name : `${pkg.name}/${key.replace(/^\.\//, "")}`;
    // tsconfig.json's "paths" first; else the source the "types" file is emitted from.
    const fromTypes = target.types?.replace(/^\.\/dist\/types\//, "").replace(/\.d\.ts$/, "");
    const path = config.compilerOptions.paths[specifier]?.[0] ?? [`${fromTypes}.ts`, `${fromTypes}.tsx`].find((file) => fromTypes && existsSync(join(repositoryRoot, file)));
    if (!path) throw new Error(`neither tsconfig.json's "paths" nor package.json's "types" give the source of ${specifier}`);
    return { specifier, source: join(repositoryRoot, path) };
  });
}

/** A program over the given files with the project's compiler options. */
export function projectProgram(files: string[], host?: ts.CompilerHost): ts.Program {
  const config = ts.readConfigFile(join(repositoryRoot, "tsconfig.json"), ts.sys.readFile).config as object;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, repositoryRoot);
  return ts.createProgram(files, { ...options, noEmit: true }, host);
}

/** The names a module exports (values and types), aliases resolved to their declarations. */
export function exportedSymbols(program: ts.Program, file: string): Map<string, ts.Symbol> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) return new Map();
  return new Map(
    checker.getExportsOfModule(module).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return [symbol.getName(), target];
    }),
  );
}
