import { relative } from "node:path";
import { ensureTestModel } from "./ensure-test-model.js";
import { BUILD_USAGE, parseBuildArguments } from "./parse-build-arguments.js";
import { readQwen3TokenizerFiles } from "./qwen3-tokenizer.js";
import { allTestModels } from "./test-model-catalog.js";

/** Megabytes with one decimal. */
function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * The build CLI: parses `argv`, builds what is missing or stale, prints one
 * line per model to `print`, and returns the exit code.
 */
export async function runBuildCli(argv: readonly string[], print: (line: string) => void = console.log): Promise<number> {
  let parsed;
  try {
    parsed = parseBuildArguments(argv);
  } catch (error) {
    print(`models:build: ${(error as Error).message}\n\n${BUILD_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    print(BUILD_USAGE);
    return 0;
  }
  const tokenizerFiles = readQwen3TokenizerFiles();
  for (const definition of allTestModels().filter((model) => parsed.ids.includes(model.id))) {
    if (definition.approximateBytes > 100e6) print(`${definition.id}: building (~${megabytes(definition.approximateBytes)})…`);
    const result = await ensureTestModel(definition, { force: parsed.force, tokenizerFiles, ...(parsed.root ? { root: parsed.root } : {}) });
    const where = relative(process.cwd(), result.folder) || ".";
    const what = result.built ? `built in ${(result.buildMs / 1000).toFixed(1)} s` : "up to date";
    print(`${definition.id}: ${what}, ${megabytes(result.manifest.totalBytes)}, dtype ${result.manifest.dtype} -> ${where}`);
  }
  return 0;
}
