import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_QWEN35_ANSWER, DEFAULT_QWEN35_TOOL_CALL, ensureTestModel, qwen35ScriptedModel, scriptedModel, tinyQwen35Model } from "../models/test-models/index.js";
import {
  cleanEnvironment,
  createApp,
  folderBytes,
  freePort,
  hostModel,
  installedPackages,
  installedVersion,
  npmInstall,
  packPackage,
  pinnedFiles,
  serveStatic,
  shell,
} from "./test-support/consumer-app.js";
import { closeChromium, expectElementToolLoop, expectShapedRun, expectToolLoop, waitForServer } from "./test-support/consumer-app-runs.js";
import { storeScriptedModel } from "../models/test-models/example-scripted-models.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixtures = `${root}runtime/test-fixtures/consumer-apps/`;
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  exports: Record<string, { types: string; import: string }>;
};

// The names the seeds' Import sections promise from each entry, and the
// README's for what came after the seeds (createFallbackAdapter); runtime
// values only, types are checked by `tsc` on the seed examples.
const PROMISED: Record<string, string[]> = {
  "./element": ["WebAgentsChatElement", "defineWebAgentsChat", "createCloudAdapter", "createLocalAdapter", "defineModel", "defineWebTool", "registerWebTool"],
  ".": ["createLocalAdapter", "defineModel", "AgentChat", "useAgentChat", "useWebAgent", "useWebTool", "WebAgentsProvider", "AgentCursor", "useAgentSession", "createCloudAdapter", "turnstileHeaders", "defineWebAgent", "createAgentSession", "sessionReducer", "resumable", "LIMITS", "defineWebTool", "callModelContextTool", "createFallbackAdapter"],
  "./runtime": ["createAgentSession", "sessionReducer", "resumable", "LIMITS", "createCloudAdapter", "turnstileHeaders", "createLocalAdapter", "defineModel", "QWEN3_CATALOG", "createFallbackAdapter"],
  "./agent": ["defineWebAgent", "flattenWebAgents", "selectTools", "delegateTool", "delegateToolName", "isDelegateTool", "DELEGATE_PREFIX", "AGENT_ID"],
  "./core": ["defineWebTool", "registerWebTool", "callModelContextTool", "readPageTools", "onAgentEvent", "WebAgentsError"],
  "./server": ["defineWebAgent", "flattenWebAgents", "selectTools", "createChatHandler", "resolveModel"],
  "./testing": ["createScriptedAdapter", "testModelEntries"],
};

/** Packages a browser-only site must not get from installing this one. */
const NOT_FOR_BROWSER_SITES = ["onnxruntime-node", "sharp", "@huggingface/transformers", "onnxruntime-web", "@mlc-ai/web-llm", "redis", "ai", "@ai-sdk/openai"];

/** The files a site hosts for the scripted test model (its model.json pins each). */
const MODEL_FILES = ["config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];

let work: string;
let tarball: string;
let modelFolder: string;
let qwen35Folder: string;
let shapedFolder: string;

/**
 * The model definitions a site's app.js imports, each hosted on its own
 * origin and pinned by sha256: ./model.json (its scripted model, Qwen3
 * format), ./model-qwen35.json (a Qwen3.5-format model: XML tool calls) and
 * ./model-shaped.json (Qwen3.5's architecture, qwen3_5_text: conv, recurrent
 * and KV caches; random weights).
 */
function siteModel(which: "scripted" | "qwen35" | "shaped") {
  const { id, label, brief, repo, folder } = {
    scripted: { id: "scripted-ours", label: "Our scripted model", brief: "Calls add_to_cart, then answers.", repo: "scripted", folder: modelFolder },
    qwen35: { id: "scripted-qwen35-ours", label: "Our Qwen3.5-format model", brief: "Calls add_to_cart with typed parameters, then answers.", repo: "scripted-qwen35", folder: qwen35Folder },
    shaped: { id: "tiny-qwen35-ours", label: "A Qwen3.5-shaped model", brief: "Random weights with Qwen3.5's architecture: answers nonsense.", repo: "tiny-qwen35", folder: shapedFolder },
  }[which];
  return {
    id,
    label,
    brief,
    parameters: 1_000,
    ...(which !== "scripted" && { format: "qwen3.5" }),
    baseUrl: "/models",
    variants: [{ id: "wasm-fp32", engine: "transformers", device: "wasm", dtype: "fp32", repo, files: pinnedFiles(folder, MODEL_FILES) }],
  };
}

/** Writes the three definitions beside the site's app.js, as it imports them. */
function writeSiteModels(folder: string) {
  for (const [file, which] of [["model.json", "scripted"], ["model-qwen35.json", "qwen35"], ["model-shaped.json", "shaped"]] as const) writeFileSync(join(folder, file), JSON.stringify(siteModel(which)));
}

describe("the package as a site installs and builds it", () => {
  beforeAll(async () => {
    await shell("npm", ["run", "build", "--silent"], root, 300_000);
    work = mkdtempSync(join(tmpdir(), "web-agents-package-"));
    tarball = await packPackage(root, join(work, "pack"));
    modelFolder = (await ensureTestModel(scriptedModel())).folder;
    qwen35Folder = (await ensureTestModel(qwen35ScriptedModel())).folder;
    shapedFolder = (await ensureTestModel(tinyQwen35Model())).folder;
  }, 400_000);

  afterAll(async () => {
    await closeChromium();
    // WEB_AGENTS_KEEP_APPS=1 keeps the apps for a look (the path is printed).
    if (process.env.WEB_AGENTS_KEEP_APPS) console.log(`apps kept in ${work}`);
    else if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each(Object.entries(manifest.exports))("emits %s with its .d.ts", async (entry, target) => {
    expect(existsSync(`${root}${target.import}`)).toBe(true);
    expect(existsSync(`${root}${target.types}`)).toBe(true);
    const module = (await import(pathToFileURL(`${root}${target.import}`).href)) as Record<string, unknown>;
    for (const name of PROMISED[entry] ?? []) expect(module[name], `${entry} exports ${name}`).toBeDefined();
  });

  it("ships the build and the README's few sources, no bench figures, test code or test models", async () => {
    const { stdout } = await promisify(execFile)("tar", ["-tzf", tarball]);
    const files = stdout.split("\n").filter(Boolean).map((path) => path.replace(/^package\//, ""));
    expect(files).toContain("dist/index.js");
    expect(files.filter((path) => /^bench\/|(^|\/)test-(fixtures|support|models)\/|[.]test[.]/.test(path))).toEqual([]);
  });

  it("keeps React out of ./runtime, ./agent, ./core and ./server, down to every chunk they import", () => {
    const staticImports = (file: string) =>
      [...readFileSync(`${root}dist/${file}`, "utf8").matchAll(/\b(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g)].map((match) => match[1]!);
    for (const entry of ["runtime.js", "agent.js", "core.js", "server.js"]) {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const specifier of staticImports(file)) {
          expect(specifier, `${entry} -> ${file} imports ${specifier}`).not.toMatch(/^react(-dom)?(\/|$)/);
          if (specifier.startsWith("./")) visit(specifier.slice(2));
        }
      };
      visit(entry);
    }
  });

  it("loads no model engine from any main entry, and ships a self-contained worker that every bundler can follow", () => {
    for (const file of readdirSync(`${root}dist`).filter((name) => name.endsWith(".js"))) {
      const code = readFileSync(`${root}dist/${file}`, "utf8");
      expect(code, file).not.toMatch(/@huggingface\/transformers|@mlc-ai\/web-llm|onnxruntime-web/);
    }
    // One chunk, shared by `.` and `./runtime`, starts the worker (next to it in dist/).
    const spawning = readdirSync(`${root}dist`).filter(
      (name) => name.endsWith(".js") && readFileSync(`${root}dist/${name}`, "utf8").includes('new Worker(new URL("./worker/engine-worker.js", import.meta.url), { type: "module" })'),
    );
    expect(spawning).toHaveLength(1);
    const workerFiles = readdirSync(`${root}dist/worker`);
    expect(workerFiles.filter((name) => name.endsWith(".wasm"))).toHaveLength(1);
    for (const file of workerFiles.filter((name) => name.endsWith(".js"))) {
      const code = readFileSync(`${root}dist/worker/${file}`, "utf8");
      // No bare specifier left for a bundler to resolve: only ./ chunks.
      expect(code.match(/\bimport\s*\(\s*["'`](?![./])[^"'`$]+["'`]|\bimport\s*[\w$*{}\s,]+from\s*["'`](?![./])[^"'`]+["'`]/g), file).toBeNull();
      // Every asset is referred to as new URL("./file", import.meta.url) and shipped.
      for (const [, target] of code.matchAll(/new URL\(["'`]([^"'`]+)["'`],\s*import\.meta\.url\)/g)) {
        expect(target, file).toMatch(/^\.\//);
        expect(workerFiles, `${file} refers to ${target}`).toContain(target!.slice(2));
      }
    }
  });

  it("installs into an empty app with no .npmrc: no install script, no native engine, and a small node_modules", async () => {
    const app = createApp(join(work, "empty-app"), "empty-app");
    const output = await npmInstall(app, [tarball]);
    const packages = installedPackages(app);
    const names = packages.map((entry) => entry.name);
    expect(names).toContain("@webmcp-agents/chat");
    for (const name of NOT_FOR_BROWSER_SITES) expect(names, `${name} is installed`).not.toContain(name);
    const withScripts = packages.filter((entry) => entry.scripts.install || entry.scripts.preinstall || entry.scripts.postinstall).map((entry) => entry.name);
    expect(withScripts).toEqual([]);
    expect(output).not.toMatch(/install-scripts/);
    const bytes = folderBytes(join(app, "node_modules"));
    const ownBytes = folderBytes(join(app, "node_modules", "@webmcp-agents", "chat"));
    console.log(`installed size: node_modules ${(bytes / 1e6).toFixed(1)} MB (${packages.length} packages), of which @webmcp-agents/chat ${(ownBytes / 1e6).toFixed(1)} MB`);
    // The worker's ONNX Runtime wasm alone is 27 MB; everything else should stay small.
    expect(bytes).toBeLessThan(60e6);
  }, 400_000);

  it("runs the on-device tool loop in a Vite app's production build (vite build + vite preview) and its dev server, its own models pinned by sha256, Qwen3 and Qwen3.5 formats", async () => {
    const app = createApp(join(work, "vite-app"), "vite-app");
    await npmInstall(app, [tarball, `vite@${installedVersion(root, "vite")}`, `react@${installedVersion(root, "react")}`, `react-dom@${installedVersion(root, "react-dom")}`]);
    cpSync(`${fixtures}vite/index.html`, join(app, "index.html"));
    cpSync(`${fixtures}app.js`, join(app, "app.js"));
    writeSiteModels(app);
    hostModel(shapedFolder, MODEL_FILES, join(app, "public", "models"), "tiny-qwen35");
    hostModel(modelFolder, MODEL_FILES, join(app, "public", "models"), "scripted");
    hostModel(qwen35Folder, MODEL_FILES, join(app, "public", "models"), "scripted-qwen35");
    await shell("npx", ["vite", "build"], app);
    const assets = readdirSync(join(app, "dist", "assets"));
    expect(assets.some((name) => name.endsWith(".wasm")), assets.join(", ")).toBe(true);
    expect(assets.some((name) => /^engine-worker.*\.js$/.test(name)), assets.join(", ")).toBe(true);

    // What the site serves in production, then what its developer runs first: the dev server.
    for (const command of [["vite", "preview"], ["vite"]]) {
      const port = await freePort();
      let log = "";
      const server = spawn("npx", [...command, "--host", "127.0.0.1", "--port", String(port), "--strictPort"], { cwd: app, env: cleanEnvironment(), detached: true });
      server.stdout?.on("data", (chunk) => (log += chunk));
      server.stderr?.on("data", (chunk) => (log += chunk));
      try {
        await waitForServer(`http://127.0.0.1:${port}/`, server, () => log);
        await expectToolLoop(`http://127.0.0.1:${port}/`);
        // The same site with its Qwen3.5-format model: XML calls read in the worker, typed parameters.
        if (command.length === 2) {
          await expectToolLoop(`http://127.0.0.1:${port}/?model=qwen35`, { input: DEFAULT_QWEN35_TOOL_CALL.arguments, answer: DEFAULT_QWEN35_ANSWER });
          // Random weights never end a reply: capped at 32 tokens, not the engine's 1,024.
          await expectShapedRun(`http://127.0.0.1:${port}/?model=shaped&maxNewTokens=32`);
        }
      } finally {
        if (server.pid) process.kill(-server.pid, "SIGTERM");
      }
    }
  }, 600_000);

  it("runs the on-device tool loop in a webpack 5 app's production build, with no webpack configuration: in the origin's SharedWorker on one thread, and, cross-origin isolated, in a dedicated worker on two", async () => {
    const app = createApp(join(work, "webpack-app"), "webpack-app");
    await npmInstall(app, [
      tarball,
      `webpack@${installedVersion(root, "webpack")}`,
      `webpack-cli@${installedVersion(root, "webpack-cli")}`,
      `react@${installedVersion(root, "react")}`,
      `react-dom@${installedVersion(root, "react-dom")}`,
    ]);
    cpSync(`${fixtures}app.js`, join(app, "src", "index.js"));
    writeSiteModels(join(app, "src"));
    // webpack's defaults: ./src/index.js in, ./dist/main.js out.
    await shell("npx", ["webpack", "--mode", "production"], app);
    const built = readdirSync(join(app, "dist"));
    expect(built.some((name) => name.endsWith(".wasm")), built.join(", ")).toBe(true);
    cpSync(`${fixtures}webpack/index.html`, join(app, "dist", "index.html"));
    hostModel(modelFolder, MODEL_FILES, join(app, "dist", "models"), "scripted");
    const server = await serveStatic(join(app, "dist"));
    try {
      // Not cross-origin isolated: the engine runs in the origin's one SharedWorker, the default there.
      const { workers, sharedWorkers } = await expectToolLoop(server.url);
      expect(workers).toEqual([]);
      expect(sharedWorkers, sharedWorkers.join(", ")).toHaveLength(1);
    } finally {
      await server.close();
    }
    // Cross-origin isolated, with two threads asked for: ONNX Runtime's thread workers start in
    // webpack's build too (webpack rewrites import.meta.url, which ORT's thread code reads).
    const isolated = await serveStatic(join(app, "dist"), { isolated: true });
    try {
      // Isolated, a dedicated worker (a SharedWorker gets no isolation of its own) and ONNX Runtime's threads.
      const { workers } = await expectToolLoop(`${isolated.url}?threads=2`);
      expect(workers.length, workers.join(", ")).toBeGreaterThan(1);
    } finally {
      await isolated.close();
    }
  }, 600_000);

  it("runs the Field Store's tool loop through <web-agents-chat> on a plain HTML page: the installed package's files on a static server, no bundler, then the same page built by Vite", async () => {
    const app = createApp(join(work, "plain-html-app"), "plain-html-app");
    await npmInstall(app, [tarball]);
    for (const file of ["index.html", "page.css", "store.js"]) cpSync(`${root}examples/plain-html/${file}`, join(app, file));
    const storeModel = (await ensureTestModel(storeScriptedModel())).folder;
    hostModel(storeModel, MODEL_FILES, join(app, "models"), "store-scripted");
    const files = pinnedFiles(storeModel, MODEL_FILES);
    const variant = { id: "wasm-fp32", engine: "transformers", device: "wasm", dtype: "fp32", repo: "store-scripted", requiresShaderF16: false, files, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
    writeFileSync(join(app, "models.json"), JSON.stringify([{ id: "store-scripted", label: "Store script", brief: "Shops.", parameters: 1, baseUrl: "/models", variants: [variant] }]));
    // React comes inside the element's file: the site installs nothing else.
    expect(installedPackages(app).map((entry) => entry.name)).not.toContain("react");
    const server = await serveStatic(app);
    try {
      await expectElementToolLoop(server.url);
    } finally {
      await server.close();
    }
    // The same page through one bundler (Vite's production build of index.html): the bare
    // import resolves to the same file through the package's exports.
    await build({ root: app, configFile: false, logLevel: "error", build: { outDir: join(app, "dist"), emptyOutDir: true } });
    cpSync(join(app, "models"), join(app, "dist", "models"), { recursive: true });
    cpSync(join(app, "models.json"), join(app, "dist", "models.json"));
    const built = await serveStatic(join(app, "dist"));
    try {
      await expectElementToolLoop(built.url);
    } finally {
      await built.close();
    }
  }, 400_000);
});
