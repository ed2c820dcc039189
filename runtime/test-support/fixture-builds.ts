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
  // package.json too: its sideEffects and exports change what a build keeps.
  for (const file of [...files, "package.json", "package-lock.json"]) hash.update(file).update("\0").update(readFileSync(join(repoRoot, file))).update("\0");
  return (stamp = hash.digest("hex").slice(0, 16));
}

/** Where `folder`'s build goes. */
function outputOf(folder: string): string {
  return join(BUILDS, relative(repoRoot, folder).replaceAll(/[\\/]/g, "__"));
}

/** `folder`'s build when it was built from the sources `stamp` fingerprints (today's by default), else undefined. */
export function currentBuild(folder: string, stamp = sourcesStamp()): string | undefined {
  return current(outputOf(folder), stamp);
}

function current(output: string, stamp: string): string | undefined {
  try {
    return readFileSync(join(output, STAMP), "utf8") === stamp ? output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `build` into a scratch folder, stamps it and renames it to `output`:
 * a build cut short leaves nothing that looks current.
 */
async function buildInto(output: string, build: (outDir: string) => Promise<unknown>, stamp = sourcesStamp()): Promise<string> {
  const found = current(output, stamp);
  if (found) return found;
  const scratch = `${output}.${process.pid}.${Date.now()}`;
  mkdirSync(BUILDS, { recursive: true });
  await build(scratch);
  writeFileSync(join(scratch, STAMP), stamp);
  rmSync(output, { recursive: true, force: true });
  try {
    renameSync(scratch, output);
  } catch (error) {
    // Another process put a build there first: theirs is as good.
    rmSync(scratch, { recursive: true, force: true });
    if (!current(output, stamp)) throw error;
  }
  return output;
}

/**
 * Builds `folder` as a site would (Vite's production build, its workers as
 * ES modules) unless a current build is there. React stays in its
 * development build (`mode: "development"`), so its warnings still reach the
 * tests.
 */
export function buildFixture(folder: string): Promise<string> {
  return buildInto(outputOf(folder), (outDir) =>
    build({
      root: folder,
      configFile: false,
      mode: "development",
      plugins: [reactFixture],
      logLevel: "error",
      // Assets keep their own names, as the dev server serves them: tests read which of ONNX Runtime's .wasm files a page fetched.
      build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false, chunkSizeWarningLimit: Infinity, rolldownOptions: { output: { assetFileNames: ASSET_NAMES } } },
      worker: { format: "es", rolldownOptions: { output: { assetFileNames: ASSET_NAMES } } },
    }),
  );
}

/** Where the examples' build for the browser tests goes, with the test models offered or not (the one setting the pages are built with). */
export function examplesOutput(testModels: boolean): string {
  return join(BUILDS, testModels ? "examples__test-models" : "examples__hub-models");
}

/** The examples' build (examples/test-support/serve-examples.ts serves it) when it is current, else undefined. */
export function currentExamplesBuild(testModels: boolean, stamp = sourcesStamp()): string | undefined {
  return current(examplesOutput(testModels), stamp);
}

/**
 * Builds the example pages from the config `npm start` serves
 * (examples/examples-config.ts), as the fixtures are built: React's
 * development build, nothing minified.
 */
export async function buildExamples(testModels: boolean): Promise<string> {
  const { examplesConfig } = await import("../../examples/examples-config.js");
  const config = examplesConfig({ env: testModels ? { WEB_AGENTS_TEST_MODELS: "1" } : {}, argv: [], printUrls: false });
  return buildInto(examplesOutput(testModels), (outDir) =>
    build({ ...config, configFile: false, mode: "development", logLevel: "error", build: { ...config.build, outDir, emptyOutDir: true, minify: false, reportCompressedSize: false, chunkSizeWarningLimit: Infinity } }),
  );
}

/** The evals page's sources (bench/evals/), which `sourcesStamp` leaves out. */
const EVALS_PAGE = join(repoRoot, "bench", "evals");
const EVALS_OUTPUT = join(BUILDS, "bench__evals");

/** The evals page's fingerprint: the sources `stamp` covers, and its own folder's files. */
function evalsPageStamp(stamp: string): string {
  const hash = createHash("sha256").update(stamp);
  for (const file of filesUnder(["bench/evals"]).filter((path) => /\.(ts|html)$/.test(path))) hash.update(file).update("\0").update(readFileSync(join(repoRoot, file))).update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** The evals page's build (bench/evals/serve-evals-page.ts serves it) when it is current, else undefined. */
export function currentEvalsPageBuild(stamp = sourcesStamp()): string | undefined {
  return current(EVALS_OUTPUT, evalsPageStamp(stamp));
}

/**
 * Builds the evals page (bench/evals/index.html) on the config `npm start`
 * serves it with, as the examples are built, for the path it is served at
 * (`/evals/`): what the dev server's transformIndexHtml does to it on
 * request (its module script compiled, the package aliased), done once.
 */
export async function buildEvalsPage(): Promise<string> {
  const { examplesConfig } = await import("../../examples/examples-config.js");
  const config = examplesConfig({ env: {}, argv: [], printUrls: false });
  return buildInto(
    EVALS_OUTPUT,
    (outDir) =>
      build({
        ...config,
        root: EVALS_PAGE,
        base: "/evals/",
        configFile: false,
        mode: "development",
        logLevel: "error",
        build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false, chunkSizeWarningLimit: Infinity, rollupOptions: { input: join(EVALS_PAGE, "index.html") } },
      }),
    evalsPageStamp(sourcesStamp()),
  );
}

/**
 * Builds every fixture, both examples builds and the evals page that have no current build,
 * two at a time (the machines have two cores); returns how many were built.
 */
export async function buildFixtures(folders = fixtureFolders()): Promise<number> {
  const queue: (() => Promise<string>)[] = [
    ...folders.filter((folder) => !currentBuild(folder)).map((folder) => () => buildFixture(folder)),
    ...[true, false].filter((testModels) => !currentExamplesBuild(testModels)).map((testModels) => () => buildExamples(testModels)),
    ...(currentEvalsPageBuild() ? [] : [buildEvalsPage]),
  ];
  const stale = queue.length;
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await task();
  };
  await Promise.all([worker(), worker()]);
  return stale;
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
