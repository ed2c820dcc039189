import { randomUUID } from "node:crypto";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readQwen3TokenizerFiles, type Qwen3TokenizerFiles } from "./qwen3-tokenizer.js";
import type { TestModelDefinition } from "./test-model-definition.js";
import { filesMatchManifest, readTestModelManifest, type TestModelManifest } from "./test-model-manifest.js";
import { builderSourceHash, testModelStamp } from "./test-model-stamp.js";
import { writeTestModel } from "./write-test-model.js";

/** `.cache/models/` at the repository root (git-ignored): where the CLI and `npm start` put built models. */
export const DEFAULT_MODELS_ROOT = fileURLToPath(new URL("../../.cache/models/", import.meta.url));

/** Options for `ensureTestModel`. */
export interface EnsureTestModelOptions {
  /** Folder holding one subfolder per model id (default `DEFAULT_MODELS_ROOT`). */
  root?: string;
  /** Rebuild even when the folder is current (default false). */
  force?: boolean;
  /** Read once and pass when building several models. */
  tokenizerFiles?: Qwen3TokenizerFiles;
}

/** What `ensureTestModel` found or made. */
export interface EnsuredTestModel {
  /** The model folder: point transformers.js's `env.localModelPath` at its parent and load `id`. */
  folder: string;
  manifest: TestModelManifest;
  /** False when a current build was already there. */
  built: boolean;
  /** Milliseconds spent building (0 when skipped). */
  buildMs: number;
}

function current(folder: string, stamp: string): TestModelManifest | undefined {
  const manifest = readTestModelManifest(folder);
  return manifest?.stamp === stamp && filesMatchManifest(folder, manifest) ? manifest : undefined;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
 * Moves a finished build into place. Test files run in parallel workers and
 * may ask for the same model at once: a folder that another process has
 * meanwhile published with the same stamp is kept, anything else is moved
 * aside and deleted, so readers only ever see a complete folder.
 */
function publish(staging: string, folder: string, stamp: string, replaceCurrent: boolean): TestModelManifest | undefined {
  for (;;) {
    try {
      renameSync(staging, folder);
      return undefined;
    } catch (error) {
      if (errorCode(error) !== "ENOTEMPTY" && errorCode(error) !== "EEXIST") throw error;
    }
    const winner = replaceCurrent ? undefined : current(folder, stamp);
    if (winner) return winner;
    const aside = `${folder}.stale-${randomUUID()}`;
    try {
      renameSync(folder, aside);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
    }
    rmSync(aside, { recursive: true, force: true });
    replaceCurrent = false;
  }
}

/**
 * Builds a model into `<root>/<id>/` unless a complete build with the same
 * stamp is already there (manifest present, stamp equal, files of the
 * recorded sizes). The build goes to a hidden sibling folder first and is
 * renamed into place when complete.
 */
export async function ensureTestModel(definition: TestModelDefinition, options: EnsureTestModelOptions = {}): Promise<EnsuredTestModel> {
  const root = options.root ?? DEFAULT_MODELS_ROOT;
  const folder = join(root, definition.id);
  const tokenizerFiles = options.tokenizerFiles ?? readQwen3TokenizerFiles();
  const stamp = testModelStamp(definition, tokenizerFiles.version, builderSourceHash());
  const existing = options.force ? undefined : current(folder, stamp);
  if (existing) return { folder, manifest: existing, built: false, buildMs: 0 };

  const started = performance.now();
  const staging = join(root, `.${definition.id}.building-${randomUUID()}`);
  try {
    const manifest = await writeTestModel(staging, definition, { tokenizerFiles, stamp });
    const published = publish(staging, folder, stamp, options.force ?? false) ?? manifest;
    return { folder, manifest: published, built: true, buildMs: performance.now() - started };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
