import { QWEN35_SHAPED_DTYPES } from "./qwen35-shaped-model.js";
import { SHAPED_DTYPES, allTestModels } from "./test-model-catalog.js";
import type { TestModelDtype } from "./test-model-definition.js";

/** What the build CLI was asked to do. */
export interface BuildArguments {
  /** Model ids to build, in catalog order. */
  ids: string[];
  /** Rebuild even when current. */
  force: boolean;
  /** Output root (default: `.cache/models/`). */
  root?: string;
  help: boolean;
}

/** The CLI's usage text. */
export const BUILD_USAGE = `Builds the test models into .cache/models/<id>/ (skips a current build).

  npm run models:build                       tiny and scripted (the default)
  npm run models:build -- --only tiny        just these ids, comma-separated
  npm run models:build -- --shaped q8,q4     also Qwen3-0.6B-shaped models (fp32 2.4 GB, q8 0.8 GB, q4 1 GB)
  npm run models:build -- --shaped-qwen35 q8  also Qwen3.5-0.8B-shaped models (fp32 2.6 GB, q8 0.8 GB)
  npm run models:build -- --only tiny-qwen35,scripted-qwen35   the small Qwen3.5 ones
  npm run models:build -- --all              everything
  options: --force (rebuild), --root <dir> (output folder), --help`;

function list(value: string | undefined, flag: string): string[] {
  if (!value || value.startsWith("--")) throw new Error(`${flag} needs a comma-separated list`);
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

/** Parses the CLI's arguments; throws with a message for the user on a bad one. */
export function parseBuildArguments(argv: readonly string[]): BuildArguments {
  const known = allTestModels().map((definition) => definition.id);
  const wanted = new Set<string>();
  let explicit = false;
  const result: BuildArguments = { ids: [], force: false, help: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] = argument.includes("=") ? argument.split(/=(.*)/s, 2) : [argument, undefined];
    const value = (): string | undefined => inline ?? argv[++index];
    switch (flag) {
      case "--all":
        known.forEach((id) => wanted.add(id));
        explicit = true;
        break;
      case "--only":
        for (const id of list(value(), "--only")) {
          if (!known.includes(id)) throw new Error(`unknown model "${id}" (known: ${known.join(", ")})`);
          wanted.add(id);
        }
        explicit = true;
        break;
      case "--shaped":
        for (const dtype of list(value(), "--shaped")) {
          if (!SHAPED_DTYPES.includes(dtype as TestModelDtype)) throw new Error(`unknown dtype "${dtype}" (known: ${SHAPED_DTYPES.join(", ")})`);
          wanted.add(`qwen3-0.6b-shaped-${dtype}`);
        }
        break;
      case "--shaped-qwen35":
        for (const dtype of list(value(), "--shaped-qwen35")) {
          if (!(QWEN35_SHAPED_DTYPES as readonly string[]).includes(dtype)) {
            throw new Error(`unknown dtype "${dtype}" (known: ${QWEN35_SHAPED_DTYPES.join(", ")})`);
          }
          wanted.add(`qwen35-0.8b-shaped-${dtype}`);
        }
        break;
      case "--force":
        result.force = true;
        break;
      case "--root":
        result.root = list(value(), "--root")[0];
        break;
      case "--help":
      case "-h":
        result.help = true;
        break;
      default:
        throw new Error(`unknown argument "${argument}"`);
    }
  }
  // --shaped / --shaped-qwen35 alone add to the default pair rather than replacing it.
  if (!explicit) ["tiny", "scripted"].forEach((id) => wanted.add(id));
  result.ids = known.filter((id) => wanted.has(id));
  return result;
}
