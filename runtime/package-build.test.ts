import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createServer } from "vite";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, scriptedModel } from "../models/test-models/index.js";
import { modelFilesPlugin } from "./test-support/model-files-plugin.js";
import { launchChromium } from "./test-support/launch-chromium.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  exports: Record<string, { types: string; import: string }>;
};

// The names the seeds' Import sections promise from each entry (runtime
// values only; types are checked by `tsc` on the seed examples).
const PROMISED: Record<string, string[]> = {
  ".": ["createLocalAdapter", "AgentChat", "useAgentChat", "useWebAgent", "useWebTool", "WebAgentsProvider", "AgentCursor", "useAgentSession", "createCloudAdapter", "turnstileHeaders", "defineWebAgent", "createAgentSession", "sessionReducer", "resumable", "LIMITS", "defineWebTool", "callModelContextTool"],
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

  it("runs the on-device adapter from dist in a site's Vite page: the worker ships with the package", async () => {
    const model = await ensureTestModel(scriptedModel());
    const server = await createServer({
      root: `${root}runtime/test-fixtures/consumer-page`,
      configFile: false,
      logLevel: "error",
      plugins: [modelFilesPlugin(join(model.folder, ".."))],
      resolve: { alias: { "@webmcp-agents/chat": `${root}dist/index.js` } },
      server: { host: "127.0.0.1", port: 0, fs: { allow: [root] }, hmr: false },
      optimizeDeps: { noDiscovery: true, include: ["react", "react/jsx-runtime", "react-dom"] },
    });
    await server.listen();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
      const address = server.httpServer!.address() as { port: number };
      await page.goto(`http://127.0.0.1:${address.port}/`);
      await page
        .waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 })
        .catch((error: Error) => Promise.reject(new Error(`${error.message}\npage errors: ${errors.join("\n")}`)));
      const result = await page.evaluate(() => (window as unknown as { runConsumer: () => Promise<any> }).runConsumer());
      expect(result.error).toBeUndefined();
      expect(result.state).toBe("ready");
      const parts = result.messages.flatMap((message: { parts: { type: string; text?: string }[] }) => message.parts);
      expect(parts.find((part: { type: string }) => part.type === "tool")).toMatchObject({ name: "add_to_cart", state: "done" });
      expect(parts.filter((part: { type: string }) => part.type === "text").map((part: { text?: string }) => part.text).join("")).toContain(
        "Added socks to your cart.",
      );
      expect(await page.textContent("#badge")).toBe("1");
    } finally {
      await browser.close();
      await server.close();
    }
  }, 180_000);
});
