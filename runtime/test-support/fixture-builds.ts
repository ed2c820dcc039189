import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { reactFixture } from "./react-fixture-plugin.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const BUILDS = join(repoRoot, ".cache", "fixtures");
const STAMP = ".sources-stamp";
const ASSET_NAMES = "assets/[name][extname]";

/**
 * Every fixture page a browser test serves (`serveFixture`): a folder under
 * a `test-fixtures/` with an index.html. The consumer apps are built by the
 * package tests with their own bundlers.
 */
export function fixtureFolders(): string[] {
  return filesUnder(["runtime", "worker", "models", "widget"])
    .filter((path) => /(^|\/)test-fixtures\/[^/]+\/index\.html$/.test(path) && !path.includes("consumer-apps"))
    .map((path) => join(repoRoot, dirname(path)));
}

/** The files under the repository's `folders`, as paths relative to it, sorted (node_modules and test files aside). */
function filesUnder(folders: string[]): string[] {
  return folders
    .flatMap((folder) => readdirSync(join(repoRoot, folder), { recursive: true, encoding: "utf8" }).map((path) => join(folder, path).replaceAll("\\", "/")))
    .filter((path) => !path.includes("node_modules") && !/\.test\.tsx?$/.test(path))
    .sort();
}

let stamp: string | undefined;

/** A fingerprint of what a fixture build reads: the source folders' files (tests aside) and the lockfile. */
export function sourcesStamp(): string {
  if (stamp) return stamp;
  const hash = createHash("sha256");
  const files = filesUnder(["runtime", "worker", "models", "widget", "examples"]).filter((path) => /\.(tsx?|m?js|html|css|json)$/.test(path));
  for (const file of [...files, "package-lock.json"]) hash.update(file).update("\0").update(readFileSync(join(repoRoot, file))).update("\0");
  return (stamp = hash.digest("hex").slice(0, 16));
}

/** Where `folder`'s build goes. */
function outputOf(folder: string): string {
  return join(BUILDS, relative(repoRoot, folder).replaceAll(/[\\/]/g, "__"));
}

/** `folder`'s build when it was built from the sources `stamp` fingerprints (today's by default), else undefined. */
export function currentBuild(folder: string, stamp = sourcesStamp()): string | undefined {
  const output = outputOf(folder);
  try {
    return readFileSync(join(output, STAMP), "utf8") === stamp ? output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds `folder` as a site would (Vite's production build, its workers as
 * ES modules) unless a current build is there. React stays in its
 * development build (`mode: "development"`), so its warnings still reach the
 * tests. Written to a scratch folder and renamed into place: a build cut
 * short leaves nothing that looks current.
 */
export async function buildFixture(folder: string): Promise<string> {
  const found = currentBuild(folder);
  if (found) return found;
  const output = outputOf(folder);
  const scratch = `${output}.${process.pid}.${Date.now()}`;
  mkdirSync(BUILDS, { recursive: true });
  await build({
    root: folder,
    configFile: false,
    mode: "development",
    plugins: [reactFixture],
    logLevel: "error",
    // Assets keep their own names, as the dev server serves them: tests read which of ONNX Runtime's .wasm files a page fetched.
    build: { outDir: scratch, emptyOutDir: true, minify: false, reportCompressedSize: false, chunkSizeWarningLimit: Infinity, rolldownOptions: { output: { assetFileNames: ASSET_NAMES } } },
    worker: { format: "es", rolldownOptions: { output: { assetFileNames: ASSET_NAMES } } },
  });
  writeFileSync(join(scratch, STAMP), sourcesStamp());
  rmSync(output, { recursive: true, force: true });
  try {
    renameSync(scratch, output);
  } catch (error) {
    // Another process put a build there first: theirs is as good.
    rmSync(scratch, { recursive: true, force: true });
    if (!currentBuild(folder)) throw error;
  }
  return output;
}

/** Builds every fixture that has no current build, two at a time (the machines have two cores); returns how many were built. */
export async function buildFixtures(folders = fixtureFolders()): Promise<number> {
  const stale = folders.filter((folder) => !currentBuild(folder));
  const queue = [...stale];
  const worker = async () => {
    for (let folder = queue.shift(); folder; folder = queue.shift()) await buildFixture(folder);
  };
  await Promise.all([worker(), worker()]);
  return stale.length;
}

/** Whether fixtures are served from Vite's dev server instead (`FIXTURES=dev`, for editing a fixture page). */
export function servesFromSource(): boolean {
  return process.env.FIXTURES === "dev";
}

/**
 * The variable the browser tier's global setup leaves for its test files:
 * the fingerprint its builds were made from, so a file serves those builds
 * even when a source changes while the run goes on.
 */
export const BUILT_FIXTURES_VARIABLE = "WEB_AGENTS_FIXTURE_BUILDS";
