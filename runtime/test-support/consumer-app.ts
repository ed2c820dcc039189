import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The environment of a new user's shell: none of this project's npm or
 * onnxruntime settings (CI exports ONNXRUNTIME_NODE_INSTALL=skip, and npm
 * passes its own config to the scripts it runs).
 */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_|^ONNXRUNTIME_|^NODE_OPTIONS$|^VITEST|^INIT_CWD$/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/** Runs a command in `cwd` as a user would, failing with its output. */
export async function shell(command: string, args: string[], cwd: string, timeout = 240_000): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: cleanEnvironment(), timeout, maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
}

/** `npm pack` of the built package into `folder` (no rebuild: the caller built it); the tarball's path. */
export async function packPackage(root: string, folder: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  await shell("npm", ["pack", "--ignore-scripts", "--pack-destination", folder], root);
  const [filename] = readdirSync(folder).filter((name) => name.endsWith(".tgz"));
  if (!filename) throw new Error(`npm pack wrote no tarball into ${folder}`);
  return join(folder, filename);
}

/** The version of a package installed in this repository, so an app installs the same one (from npm's cache). */
export function installedVersion(root: string, name: string): string {
  return (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** An empty app folder with a package.json, like `npm init -y`. */
export function createApp(folder: string, name: string, scripts: Record<string, string> = {}): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name, private: true, version: "1.0.0", type: "module", scripts }, null, 2));
  return folder;
}

/** `npm install` in an app, from the registry (npm's cache first), with no project .npmrc. */
export function npmInstall(folder: string, specs: string[]): Promise<string> {
  return shell("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...specs], folder, 400_000);
}

/** Every package under node_modules (scoped ones too), with the folder it is in. */
export function installedPackages(folder: string): { name: string; path: string; scripts: Record<string, string> }[] {
  const found: { name: string; path: string; scripts: Record<string, string> }[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith(".")) continue;
      const path = join(modules, entry);
      if (entry.startsWith("@")) {
        for (const scoped of readdirSync(path)) addPackage(join(path, scoped));
      } else addPackage(path);
    }
  };
  const addPackage = (path: string) => {
    const manifest = join(path, "package.json");
    if (!existsSync(manifest)) return;
    const json = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; scripts?: Record<string, string> };
    found.push({ name: json.name, path, scripts: json.scripts ?? {} });
    visit(join(path, "node_modules"));
  };
  visit(join(folder, "node_modules"));
  return found;
}

/** Bytes of every file under `folder` (apparent size, as `du -sb`). */
export function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** A model's files as a site declares them to `defineModel`: each with its exact size and sha256. */
export function pinnedFiles(modelFolder: string, paths: string[]): { path: string; bytes: number; sha256: string }[] {
  return paths.map((path) => {
    const data = readFileSync(join(modelFolder, path));
    return { path, bytes: data.byteLength, sha256: createHash("sha256").update(data).digest("hex") };
  });
}

/** Copies a model's files into a site's static folder in the hub's layout: `<into>/<repo>/resolve/main/<path>`. */
export function hostModel(modelFolder: string, paths: string[], into: string, repo: string): void {
  for (const path of paths) {
    const target = join(into, repo, "resolve", "main", path);
    mkdirSync(join(target, ".."), { recursive: true });
    cpSync(join(modelFolder, path), target);
  }
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

/** A plain static file server on 127.0.0.1 (what a site's CDN does), for a production build; `isolated` sends COOP/COEP. */
export async function serveStatic(folder: string, options: { isolated?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const isolation = options.isolated ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } : {};
  const root = resolve(folder);
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    let file = resolve(root, `.${pathname}`);
    if (file !== root && !file.startsWith(root + sep)) return void response.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) return void response.writeHead(404, { "content-type": "text/plain", ...isolation }).end(`Not found: ${relative(root, file)}`);
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-length": statSync(file).size, ...isolation });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
