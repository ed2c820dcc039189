import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TestModelDefinition } from "./test-model-definition.js";

const BUILDER_FOLDER = fileURLToPath(new URL(".", import.meta.url));

/** Hash of this folder's non-test TypeScript: any change to a builder rebuilds every model. */
export function builderSourceHash(folder = BUILDER_FOLDER): string {
  const hash = createHash("sha256");
  const sources = readdirSync(folder)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort();
  for (const name of sources) hash.update(name).update("\0").update(readFileSync(`${folder}/${name}`)).update("\0");
  return hash.digest("hex");
}

/**
 * The content stamp a built folder's manifest records: the builder's sources,
 * the model's id, dtype and options, and the tokenizer package's version.
 */
export function testModelStamp(definition: TestModelDefinition, tokenizerVersion: string, sourceHash = builderSourceHash()): string {
  return createHash("sha256")
    .update(JSON.stringify({ id: definition.id, dtype: definition.dtype, options: definition.options, tokenizerVersion, sourceHash }))
    .digest("hex")
    .slice(0, 32);
}
