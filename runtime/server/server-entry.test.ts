/**
 * `@webmcp-agents/chat/server` runs on Node and on edge runtimes: no Node
 * module at runtime (node:http is a type only), Redis loaded only when a
 * store is created from a URL, a provider package only on its model's first call, and the page-side layers never imported.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL(".", import.meta.url));
const sources = readdirSync(folder).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));

function valueImports(source: string): string[] {
  const statements = source.match(/^(?:import|export)\s(?!type\s)[^;]*?\sfrom\s+"[^"]+"/gms) ?? [];
  return statements.map((statement) => /"([^"]+)"$/.exec(statement)?.[1] ?? "");
}

describe("the server entry", () => {
  it("imports only server/, agent/, the core's error base and result marks, the AI SDK, its providers and zod at runtime", () => {
    const allowed =
      /^\.\/[a-z0-9-]+\.js$|^\.\.\/agent\/index\.js$|^\.\.\/core\/(web-agents-error|untrusted-content)\.js$|^\.\.\/session\/limits\.js$|^ai$|^@ai-sdk\/(anthropic|openai|google)$|^@openrouter\/ai-sdk-provider$|^zod$/;
    for (const file of sources) {
      for (const specifier of valueImports(readFileSync(`${folder}/${file}`, "utf8"))) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(allowed);
      }
    }
  });

  it("loads redis and the AI SDK providers (optional peer dependencies) only through dynamic imports, each in one file", () => {
    const expected: Record<string, string[]> = {
      "create-redis-counter-store.ts": ['import("redis")'],
      "load-provider-model.ts": ['import("@ai-sdk/anthropic")', 'import("@ai-sdk/openai")', 'import("@ai-sdk/google")', 'import("@openrouter/ai-sdk-provider")'],
    };
    for (const file of sources) {
      const dynamic = readFileSync(`${folder}/${file}`, "utf8").match(/import\("[^"]+"\)/g) ?? [];
      expect(dynamic, file).toEqual(expected[file] ?? []);
    }
    // The providers are imported on a model's first call, never statically.
    for (const file of sources) {
      for (const specifier of valueImports(readFileSync(`${folder}/${file}`, "utf8"))) expect(specifier, file).not.toMatch(/^@ai-sdk\/(anthropic|openai|google)$|^@openrouter\//);
    }
  });

  it("exports the handler, its helpers and the agent definitions", async () => {
    const entry = await import("./index.js");
    for (const name of [
      "createChatHandler",
      "resolveModel",
      "toToolLoopAgent",
      "toNodeListener",
      "createMemoryCounterStore",
      "createRedisCounterStore",
      "defineWebAgent",
      "flattenWebAgents",
      "selectTools",
    ]) {
      expect(typeof (entry as Record<string, unknown>)[name], name).toBe("function");
    }
  });
});
