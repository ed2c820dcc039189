/**
 * Every Options table on a docs/api page names exactly the properties of the
 * TypeScript type it documents: an option in the type and not in the table,
 * or in the table and not in the type, fails. The type is read from the
 * package's entries with the TypeScript compiler, so a renamed or added
 * option shows up here before a reader finds the page wrong.
 *
 * Rules a table follows:
 * - Its header starts with `| Name |`; its rows' first cell holds the names as
 *   code spans (`` `label`, `brief` `` is two; `` `toJSON()` `` is `toJSON`).
 * - An option whose value is an options object of its own is written with its
 *   fields, `catalog.models`, and then the fields are compared.
 * - A row for a positional argument (the "first argument" rows) is named in
 *   the map below and not looked for in the type.
 * - A property marked `@deprecated` in the type need not have a row: those
 *   are aliases kept for a while, not options to choose, but the page has to
 *   name each one under a heading with "Deprecated" in it. One that does have
 *   a row is compared like any other.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { exportedSymbols, packageEntries, projectProgram } from "./test-support/entry-exports.js";
import { cellNames, docsFolder, nameTables, section } from "./test-support/docs-pages.js";

interface DocumentedType {
  /** The page, under docs/. */
  page: string;
  /** The heading the table sits under, as written. */
  heading: string;
  /** Which of the `| Name |` tables under that heading (0 for the first). */
  table?: number;
  /** The exported type whose properties the table lists. */
  type: string;
  /** Rows for positional arguments, not properties of the type. */
  positional?: string[];
}

/** Each Options table, the type it documents. */
const DOCUMENTED: DocumentedType[] = [
  { page: "api/adapter-types.md", heading: "### AgentAdapter", type: "AgentAdapter" },
  { page: "api/adapter-types.md", heading: "### AgentAdapter", table: 1, type: "ModelChoice" },
  { page: "api/adapter-types.md", heading: "### AgentRunRequest", type: "AgentRunRequest" },
  { page: "api/adapter-types.md", heading: "### ToolDescriptor and ToolOutput", type: "ToolDescriptor" },
  { page: "api/agent-chat.md", heading: "## Options", type: "AgentChatProps" },
  { page: "api/agent-cursor.md", heading: "## Options", type: "AgentCursorProps" },
  { page: "guide/labels.md", heading: "## Keys", type: "ChatLabels" },
  { page: "api/call-model-context-tool.md", heading: "## Options", type: "CallModelContextToolOptions", positional: ["call"] },
  { page: "api/create-built-in-adapter.md", heading: "## Options", type: "BuiltInAdapterOptions" },
  { page: "api/create-chat-handler.md", heading: "## Options", type: "ChatHandlerOptions" },
  { page: "api/create-cloud-adapter.md", heading: "## Options", type: "CloudAdapterOptions" },
  { page: "api/create-cloud-adapter.md", heading: "### Turnstile", type: "TurnstileHeadersOptions" },
  { page: "api/create-fallback-adapter.md", heading: "## Options", type: "FallbackAdapterOptions", positional: ["adapters"] },
  { page: "api/create-local-adapter.md", heading: "## Options", type: "LocalAdapterOptions" },
  { page: "api/create-scripted-adapter.md", heading: "## Options", type: "ScriptedAdapterOptions" },
  { page: "api/define-model.md", heading: "## Options", type: "ModelDefinition" },
  { page: "api/define-model.md", heading: "## Options", table: 1, type: "ModelVariantDefinition" },
  { page: "api/define-web-agent.md", heading: "## Options", type: "WebAgentConfig" },
  { page: "api/define-web-agent.md", heading: "### agent.invoke", type: "WebAgentInvokeOptions" },
  { page: "api/define-web-tool.md", heading: "## Options", type: "WebToolConfig" },
  { page: "api/define-web-tool.md", heading: "## Options", table: 1, type: "WebToolContext" },
  { page: "api/evaluate-agent.md", heading: "### defineAgentScenario", type: "AgentScenarioConfig" },
  { page: "api/evaluate-agent.md", heading: "### evaluateAgent", type: "EvaluateAgentOptions" },
  { page: "api/register-web-tool.md", heading: "## Options", type: "RegisterWebToolOptions", positional: ["tool"] },
  { page: "api/use-agent-session.md", heading: "## Options", type: "UseAgentSessionOptions", positional: ["adapter"] },
  { page: "api/use-web-agent.md", heading: "## Options", type: "UseWebAgentOptions", positional: ["agent"] },
  { page: "api/web-agents-provider.md", heading: "## Options", type: "WebAgentsProviderProps" },
  { page: "api/use-agent-chat.md", heading: "## Options", type: "UseAgentChatOptions" },
  { page: "api/create-agent-session.md", heading: "## Options", type: "CreateAgentSessionOptions", positional: ["adapter"] },
  { page: "api/server-helpers.md", heading: "## resolveModel", type: "ResolveModelOptions" },
  { page: "api/server-helpers.md", heading: "## Counter stores", type: "MemoryCounterStoreOptions" },
  { page: "api/server-helpers.md", heading: "## Counter stores", table: 1, type: "RedisCounterStoreOptions" },
  { page: "api/server-helpers.md", heading: "## toToolLoopAgent", type: "ToolLoopAgentOptions" },
];

/**
 * Pages whose Options tables document no single options type, and why: they
 * are checked by the pages' own examples instead.
 */
const NOT_AN_OPTIONS_TYPE: Record<string, string> = {
  "api/errors.md": "the members of the WebAgentsError class (code, message, toJSON, fromData, isInstance), not an options object",
  "api/use-web-tool.md": "one positional argument, a WebTool or the WebToolConfig that api/define-web-tool.md checks",
};

/** The names a type's properties give, with `parent.child` where the table writes an option's fields. */
export function typeOptionNames(checker: ts.TypeChecker, type: ts.Type, tableNames: readonly string[], prefix = ""): { names: string[]; deprecated: string[] } {
  const names: string[] = [];
  const deprecated: string[] = [];
  const parts = type.isUnion() ? type.types : [type];
  const properties = new Map<string, ts.Symbol>();
  for (const part of parts) for (const property of checker.getPropertiesOfType(part)) properties.set(property.getName(), property);
  for (const [name, property] of properties) {
    const path = prefix + name;
    if (tableNames.some((tableName) => tableName.startsWith(`${path}.`))) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration ? checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, declaration)) : undefined;
      if (propertyType) {
        const nested = typeOptionNames(checker, propertyType, tableNames, `${path}.`);
        names.push(...nested.names);
        deprecated.push(...nested.deprecated);
        continue;
      }
    }
    if (property.getJsDocTags(checker).some((tag) => tag.name === "deprecated")) deprecated.push(path);
    else names.push(path);
  }
  return { names, deprecated };
}

/** What differs between a table and a type: names missing from either side. */
export function compareOptions(tableNames: readonly string[], type: { names: readonly string[]; deprecated: readonly string[] }, positional: readonly string[] = []) {
  const inTable = new Set(tableNames.filter((name) => !positional.includes(name)));
  const inType = new Set(type.names);
  return {
    notInTable: type.names.filter((name) => !inTable.has(name)),
    notInType: [...inTable].filter((name) => !inType.has(name) && !type.deprecated.includes(name)),
  };
}

/** The first-column names of one table on a page. */
function tableNamesOf(markdown: string, heading: string, table = 0): string[] | undefined {
  const text = section(markdown, heading);
  return text === undefined ? undefined : nameTables(text)[table]?.flatMap(cellNames);
}

/** A program over source given as text, for the planted cases. */
function inMemoryProgram(source: string): { checker: ts.TypeChecker; file: ts.SourceFile } {
  const fileName = join(docsFolder, "planted-options.ts");
  const host = ts.createCompilerHost({ strict: true });
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === fileName ? source : readFile(name));
  host.fileExists = ((exists) => (name: string) => name === fileName || exists(name))(host.fileExists.bind(host));
  host.getSourceFile = (name, language, ...rest) => (name === fileName ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  const program = ts.createProgram([fileName], { strict: true, noEmit: true, types: [] }, host);
  return { checker: program.getTypeChecker(), file: program.getSourceFile(fileName)! };
}

describe("docs Options tables against their types", () => {
  it("finds the difference planted in a small table and type, both ways", () => {
    const { checker, file } = inMemoryProgram(`
      export interface PlantedOptions {
        id?: string;
        label?: string;
        worker?: { host?: string; threads?: number };
        /** @deprecated Use worker: { threads }. */
        threads?: number;
      }`);
    const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(file)!.exports!.get("PlantedOptions" as ts.__String)!);
    const page = ["## Options", "", "| Name | Type | Default | Description |", "|---|---|---|---|", "| `adapters` | `A[]` | required | First. |", "| `id` | `string` | x | y |", "| `labl` | `string` | x | y |", "| `worker.host` | `string` | x | y |", "", "## Returns"].join("\n");
    const names = tableNamesOf(page, "## Options")!;
    expect(names).toEqual(["adapters", "id", "labl", "worker.host"]);
    const found = typeOptionNames(checker, type, names);
    expect(found.deprecated).toEqual(["threads"]);
    expect(compareOptions(names, found, ["adapters"])).toEqual({ notInTable: ["label", "worker.threads"], notInType: ["labl"] });
    // Set right, nothing differs.
    const fixed = ["adapters", "id", "label", "worker.host", "worker.threads"];
    expect(compareOptions(fixed, typeOptionNames(checker, type, fixed), ["adapters"])).toEqual({ notInTable: [], notInType: [] });
  });

  it("maps every docs/api page with an Options table", () => {
    const withOptions = ts.sys
      .readDirectory(join(docsFolder, "api"), [".md"])
      .map((path) => relative(docsFolder, path))
      .filter((page) => nameTables(section(readFileSync(join(docsFolder, page), "utf8"), "## Options") ?? "").length > 0);
    const mapped = new Set([...DOCUMENTED.map((entry) => entry.page), ...Object.keys(NOT_AN_OPTIONS_TYPE)]);
    expect(withOptions.filter((page) => !mapped.has(page))).toEqual([]);
  });

  it("each table names exactly its type's properties", () => {
    const entries = packageEntries();
    const program = projectProgram(entries.map((entry) => entry.source));
    const checker = program.getTypeChecker();
    const exported = new Map<string, ts.Symbol>();
    for (const entry of entries) for (const [name, symbol] of exportedSymbols(program, entry.source)) if (!exported.has(name)) exported.set(name, symbol);
    const problems: string[] = [];
    for (const documented of DOCUMENTED) {
      const where = `docs/${documented.page} ${documented.heading} (table ${documented.table ?? 0}, ${documented.type})`;
      const names = tableNamesOf(readFileSync(join(docsFolder, documented.page), "utf8"), documented.heading, documented.table);
      const symbol = exported.get(documented.type);
      if (!names) problems.push(`${where}: no such table`);
      else if (!symbol) problems.push(`${where}: no entry exports ${documented.type}`);
      else {
        const found = typeOptionNames(checker, checker.getDeclaredTypeOfSymbol(symbol), names);
        const { notInTable, notInType } = compareOptions(names, found, documented.positional);
        const page = readFileSync(join(docsFolder, documented.page), "utf8");
        const heading = /^#{2,4} .*Deprecated.*$/m.exec(page)?.[0];
        const deprecatedNames = heading ? (section(page, heading.trim()) ?? "") : "";
        for (const name of found.deprecated) if (!names.includes(name) && !deprecatedNames.includes(`\`${name}\``)) problems.push(`${where}: \`${name}\` is deprecated and not named under a "Deprecated" heading on the page`);
        for (const name of notInTable) problems.push(`${where}: \`${name}\` is in the type, not in the table`);
        for (const name of notInType) problems.push(`${where}: \`${name}\` is in the table, not in the type`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
