import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  exports: Record<string, { types: string; import: string }>;
};

// The names the seeds' Import sections promise from each entry (runtime
// values only; types are checked by `tsc` on the seed examples).
const PROMISED: Record<string, string[]> = {
  ".": ["AgentChat", "useAgentChat", "useWebAgent", "useWebTool", "WebAgentsProvider", "AgentCursor", "useAgentSession", "createCloudAdapter", "turnstileHeaders", "defineWebAgent", "createAgentSession", "sessionReducer", "resumable", "LIMITS", "defineWebTool", "callModelContextTool"],
  "./agent": ["defineWebAgent", "flattenWebAgents", "selectTools", "delegateTool", "delegateToolName", "isDelegateTool", "DELEGATE_PREFIX", "AGENT_ID"],
  "./core": ["defineWebTool", "registerWebTool", "callModelContextTool", "readPageTools", "waitForToolsToSettle", "onAgentEvent", "getModelContext"],
  "./server": ["defineWebAgent", "flattenWebAgents", "selectTools"],
  "./testing": ["createScriptedAdapter"],
};

describe("npm run build", () => {
  beforeAll(() => {
    execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "pipe" });
  }, 180_000);

  it.each(Object.entries(manifest.exports))("emits %s with its .d.ts", async (entry, target) => {
    expect(existsSync(`${root}${target.import}`)).toBe(true);
    expect(existsSync(`${root}${target.types}`)).toBe(true);
    const module = (await import(pathToFileURL(`${root}${target.import}`).href)) as Record<string, unknown>;
    for (const name of PROMISED[entry] ?? []) expect(module[name], `${entry} exports ${name}`).toBeDefined();
  });

  it("loads no model engine from any entry (engines belong in the worker)", () => {
    for (const file of readdirSync(`${root}dist`).filter((name) => name.endsWith(".js"))) {
      const code = readFileSync(`${root}dist/${file}`, "utf8");
      expect(code, file).not.toMatch(/@huggingface\/transformers|@mlc-ai\/web-llm|onnxruntime-web/);
    }
  });
});
