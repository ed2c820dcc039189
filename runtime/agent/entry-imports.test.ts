/**
 * `@webmcp-agents/chat/agent` is imported by servers and build configs, so
 * nothing in it may load the DOM, React or the session at import time. The
 * browser loop is reached only through one dynamic import.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL(".", import.meta.url));
const sources = readdirSync(folder).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));

/** Every `from "…"` of a value import (not `import type`/`export type`) in `source`. */
function valueImports(source: string): string[] {
  const statements = source.match(/^(?:import|export)\s(?!type\s)[^;]*?\sfrom\s+"[^"]+"/gms) ?? [];
  return statements.map((statement) => /"([^"]+)"$/.exec(statement)?.[1] ?? "");
}

describe("the agent entry", () => {
  it("imports only agent/ and the DOM-free core/define-web-tool at runtime", () => {
    for (const file of sources) {
      for (const specifier of valueImports(readFileSync(`${folder}/${file}`, "utf8"))) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\/[a-z-]+\.js$|^\.\.\/core\/define-web-tool\.js$/);
      }
    }
  });

  it("names session/ and the default adapter at runtime only in invoke-web-agent-lazily.ts, through dynamic imports", () => {
    for (const file of sources) {
      const source = readFileSync(`${folder}/${file}`, "utf8");
      const dynamic = source.match(/import\("[^"]+"\)/g) ?? [];
      expect(dynamic).toEqual(file === "invoke-web-agent-lazily.ts" ? ['import("../session/invoke-web-agent.js")', 'import("../adapters/cloud/shared-cloud-adapter.js")'] : []);
    }
  });

  it("loads in Node with no document or window", async () => {
    expect(typeof document).toBe("undefined");
    const entry = await import("./index.js");
    expect(Object.keys(entry).sort()).toEqual([
      "AGENT_ID",
      "DELEGATE_PREFIX",
      "defineWebAgent",
      "delegateTool",
      "delegateToolName",
      "flattenWebAgents",
      "isDelegateTool",
      "selectTools",
    ]);
  });
});
