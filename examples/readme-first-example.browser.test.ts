/**
 * The README's first example, run as a newcomer would run it: the first tsx
 * block, taken from README.md as it stands, mounted on a page in headless
 * Chromium with the package mapped to its source. Its one change: the
 * on-device model's files come from this machine, since the model hub
 * cannot be reached here: Qwen3 0.6B's catalog entry with a scripted test
 * model's files in place of the hub's (which the catalog pins by sha256),
 * served where `createLocalAdapter({ worker: { baseUrl } })` looks. The person downloads the model, asks, the agent
 * adds to the cart, parks place_order on the page's button, and answers
 * after the person's click.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, createReadStream } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { createServer, type Plugin, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, formatToolCall, scriptedModel } from "../models/test-models/index.js";
import { findChromium } from "../runtime/test-support/launch-chromium.js";
import { packageAliases } from "./package-aliases.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const ANSWER = "Your socks are ordered.";
/** The scripted shopper for the README's tools: add_to_cart with `product`, then place_order, then the answer. */
const readmeModel = () =>
  scriptedModel({
    id: "readme-shop-scripted",
    replies: [formatToolCall({ name: "add_to_cart", arguments: { product: "socks" } }), formatToolCall({ name: "place_order", arguments: {} }), ANSWER],
  });

/** Serves the scripted model where the README's adapter looks for Qwen3 0.6B (`<baseUrl>/<repo>/resolve/<revision>/<file>`). */
function localHub(folder: string): Plugin {
  const prefix = /^\/hub\/onnx-community\/Qwen3-0\.6B-ONNX\/resolve\/[0-9a-f]{40}\//;
  return {
    name: "readme-local-hub",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = (request.url ?? "").split("?")[0]!;
        if (!prefix.test(url)) return next();
        const path = url.replace(prefix, "");
        const file = join(folder, path);
        if (!existsSync(file)) return void response.writeHead(404).end();
        response.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
        createReadStream(file).pipe(response);
      });
    },
  };
}

describe("the README's first example", () => {
  // Inside the repository (git-ignored .cache/): the page's bare imports (react) resolve from its node_modules.
  mkdirSync(join(root, ".cache"), { recursive: true });
  const work = mkdtempSync(join(root, ".cache", "readme-example-"));
  let server: ViteDevServer;
  let context: BrowserContext;
  let origin: string;

  beforeAll(async () => {
    const model = await ensureTestModel(readmeModel());
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const example = /^```tsx\n([\s\S]*?)^```/m.exec(readme)![1]!;
    expect(example).toContain("const local = createLocalAdapter();");
    mkdirSync(join(work, "page"));
    // The one change: where the model's files come from (the stand-in entry, below).
    writeFileSync(join(work, "page", "shop.tsx"), example.replace("createLocalAdapter()", 'createLocalAdapter({ worker: { baseUrl: "/hub" }, catalog: { models: (globalThis as any).readmeModels } })'));
    // Qwen3 0.6B's entry as the catalog has it (id, label, revision), its transformers.js
    // variants listing the scripted model's files (run as fp32) with their sizes and hashes.
    const files = model.manifest.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 }));
    writeFileSync(
      join(work, "page", "stand-in-model.ts"),
      `import { QWEN3_CATALOG } from "@webmcp-agents/chat/runtime";\n` +
        `const files = ${JSON.stringify(files)};\n` +
        `const bytes = files.reduce((sum, file) => sum + file.bytes, 0);\n` +
        `const [entry] = QWEN3_CATALOG;\n` +
        `(globalThis as any).readmeModels = [{ ...entry, variants: entry.variants.filter((variant) => variant.engine === "transformers").map((variant) => ({ ...variant, dtype: "fp32", files, bytes })) }];\n`,
    );
    writeFileSync(
      join(work, "page", "main.tsx"),
      'import "./stand-in-model";\nimport { createRoot } from "react-dom/client";\nimport { Shop } from "./shop";\ncreateRoot(document.getElementById("root")!).render(<Shop />);\ndocument.body.dataset.ready = "true";\n',
    );
    writeFileSync(join(work, "page", "index.html"), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>');
    server = await createServer({
      root: join(work, "page"),
      configFile: false,
      logLevel: "error",
      plugins: [localHub(model.folder)],
      oxc: { jsx: { runtime: "automatic", importSource: "react" } },
      resolve: { alias: packageAliases() },
      server: { host: "127.0.0.1", port: 0, hmr: false, fs: { allow: [root, work] } },
      optimizeDeps: { noDiscovery: true, include: ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client"] },
    });
    await server.listen();
    origin = `http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}`;
    // A persistent profile, as a person's browser has: a fresh context's storage quota is small.
    context = await chromium.launchPersistentContext(join(work, "profile"), {
      executablePath: findChromium(),
      headless: true,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
    });
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("downloads the model, adds to the cart, waits for the person's click on Place order, and answers", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForSelector("body[data-ready=true]", { state: "attached" });
    const chat = page.locator("[data-web-agents-ui]").first();
    await chat.locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
    const composer = chat.locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
    await composer.fill("Buy socks, please");
    await composer.press("Enter");
    await chat.locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]').waitFor({ timeout: 60_000 });
    expect(await chat.locator('.tool[data-tool="add_to_cart"]').getAttribute("data-state")).toBe("done");
    await page.click("#place-order");
    await chat.getByText(ANSWER).waitFor({ timeout: 30_000 });
    expect(await chat.locator('.tool[data-tool="place_order"]').getAttribute("data-state")).toBe("done");
    expect(errors).toEqual([]);
  }, 180_000);
});
