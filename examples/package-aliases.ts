import { fileURLToPath } from "node:url";

/**
 * Each public entry of the package and its source file. The examples import
 * the package by name, as a site does; Vite (examples-config.ts, the
 * examples' chat route), vitest and tsconfig.json's `paths` map the names to
 * the source through this list. `examples/public-imports.test.ts` checks it
 * against package.json's `exports`.
 */
export const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  "@webmcp-agents/chat": "widget/index.ts",
  "@webmcp-agents/chat/runtime": "runtime/index.ts",
  "@webmcp-agents/chat/agent": "runtime/agent/index.ts",
  "@webmcp-agents/chat/core": "runtime/core/index.ts",
  "@webmcp-agents/chat/server": "runtime/server/index.ts",
  "@webmcp-agents/chat/testing": "runtime/testing/index.ts",
  "@webmcp-agents/chat/element": "widget/element/index.ts",
};

/** `PACKAGE_ENTRIES` as Vite's `resolve.alias`: exact names, absolute source paths. */
export function packageAliases(): { find: RegExp; replacement: string }[] {
  return Object.entries(PACKAGE_ENTRIES).map(([name, source]) => ({
    find: new RegExp(`^${name.replaceAll("/", "\\/")}$`),
    replacement: fileURLToPath(new URL(`../${source}`, import.meta.url)),
  }));
}
