// The catalog against the hub's real files: ../shared/hub/hub-facts.json records, per
// repository the catalog names, one pinned revision and each file's bytes and sha256
// where public projects that pin them record them (null: not found, never guessed).
// Every transformers.js variant is checked file by file against it.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { modelFileUrl } from "../worker/model-file-url.js";
import { QWEN_CATALOG } from "./catalog.js";
import type { CatalogVariant } from "./catalog-schema.js";
import { resolveVariant, toModelSource } from "./resolve-variant.js";

interface FactFile {
  bytes: number | null;
  sha256: string | null;
  exists: boolean | null;
}
interface FactRepository {
  revision: string;
  files: Record<string, FactFile>;
  /** The files each dtype needs (null: no such build was seen); the -OPT entries add `visionExtra` and `source`. */
  variants: Record<string, unknown>;
  sharedFiles: string[];
  externalData: { chunksPerVariant: Record<string, number | Record<string, number>> };
}

const factsPath = fileURLToPath(new URL("../../shared/hub/hub-facts.json", import.meta.url));
const facts = existsSync(factsPath) ? (JSON.parse(readFileSync(factsPath, "utf8")) as Record<string, FactRepository>) : undefined;

/** transformers.js's dtype name as the hub's file names spell it (`q8` loads `*_quantized.onnx`). */
const hubDtype = (dtype: string) => (dtype === "q8" ? "quantized" : dtype);

/**
 * The builds the hub has that the catalog does not offer, and why. Anything
 * else the facts list as a complete build must be offered.
 */
const NOT_OFFERED: Record<string, string> = {
  "onnx-community/Qwen3-1.7B-ONNX q4": "one 2,147,212,861-byte graph: past protobuf's 2 GB and a browser's single-buffer limit",
  ...Object.fromEntries(
    [
      ["onnx-community/Qwen3.5-0.8B-Text-ONNX", ["q4f16", "q4"]],
      ["onnx-community/Qwen3.5-2B-ONNX", ["q4f16", "q4", "quantized", "fp16"]],
      ["onnx-community/Qwen3.5-4B-ONNX", ["q4f16", "q4", "quantized", "fp16"]],
    ].flatMap(([repo, dtypes]) =>
      (dtypes as string[]).map((dtype) => [
        `${repo} ${dtype}`,
        "superseded by the -ONNX-OPT re-export: each gated-DeltaNet layer is a Scan over prompt positions here (models/qwen35-catalog.ts)",
      ]),
    ),
  ),
};

/** A dtype's build in the facts: its file list, or null where none was seen (`visionExtra` and `source` are notes, not builds). */
const isBuild = (files: unknown): files is string[] | null => files === null || Array.isArray(files);
const transformersVariants = QWEN_CATALOG.flatMap((entry) =>
  entry.variants.filter((variant) => variant.engine === "transformers").map((variant) => ({ entry, variant })),
);

describe.skipIf(!facts)("the catalog against the hub's files (../shared/hub/hub-facts.json)", () => {
  const repository = (variant: CatalogVariant) => {
    const found = facts![variant.repo];
    if (!found) throw new Error(`hub-facts.json has no ${variant.repo}`);
    return found;
  };

  it("pins every transformers.js variant to the facts' revision", () => {
    for (const { entry, variant } of transformersVariants) {
      expect(variant.revision, `${entry.id}/${variant.id}`).toBe(repository(variant).revision);
    }
  });

  it("lists only files the repository has at that revision, each at its recorded size and sha256", () => {
    for (const { entry, variant } of transformersVariants) {
      const recorded = repository(variant).files;
      for (const file of variant.files) {
        const where = `${entry.id}/${variant.id} ${file.path}`;
        const fact = recorded[file.path];
        expect(fact?.exists, `${where}: the facts must say the file exists`).toBe(true);
        if (fact!.bytes === null) {
          // No record agrees on its size: an estimate, never enforced as exact.
          expect(file.sha256 === undefined && file.exactBytes !== true, `${where}: an unknown size cannot be pinned`).toBe(true);
        } else {
          expect(file.bytes, where).toBe(fact!.bytes);
          expect(file.sha256 !== undefined || file.exactBytes === true, `${where}: a known size is enforced`).toBe(true);
        }
        expect(file.sha256 ?? null, `${where}: sha256`).toBe(fact!.sha256);
      }
    }
  });

  it("lists every file the dtype needs: the shared files, each graph and every declared data chunk, and the chat template file where the repo has one", () => {
    for (const { entry, variant } of transformersVariants) {
      const recorded = repository(variant);
      const build = recorded.variants[hubDtype(variant.dtype)] as string[] | null | undefined;
      expect(build, `${entry.id}/${variant.id}: the facts know no ${variant.dtype} build`).toBeTruthy();
      const jinja = recorded.files["chat_template.jinja"];
      const expected = [...recorded.sharedFiles, ...(jinja?.exists === true && jinja.bytes !== null ? ["chat_template.jinja"] : []), ...build!];
      expect(variant.files.map((file) => file.path).sort(), `${entry.id}/${variant.id}`).toEqual([...new Set(expected)].sort());
      // The chunks config.json declares, which the engine now opens from this list.
      const declared = recorded.externalData.chunksPerVariant[hubDtype(variant.dtype)];
      const listed = (graph: string) => variant.files.filter((file) => file.path.startsWith(`onnx/${graph}`) && file.path.includes(".onnx_data")).length;
      if (typeof declared === "number") expect(listed("model_"), `${entry.id}/${variant.id} data chunks`).toBe(declared);
      else for (const [graph, chunks] of Object.entries(declared ?? {})) expect(listed(`${graph}_`), `${entry.id}/${variant.id} ${graph} chunks`).toBe(chunks);
    }
  });

  it("offers every complete build the facts record, but those it says why not", () => {
    const offered = new Set(transformersVariants.map(({ variant }) => `${variant.repo} ${hubDtype(variant.dtype)}`));
    // Repositories only: the facts also hold notes (`about`, `qwen35OptExports`).
    for (const [repo, recorded] of Object.entries(facts!).filter(([, recorded]) => recorded.variants !== undefined)) {
      for (const [dtype, files] of Object.entries(recorded.variants).filter(([, files]) => isBuild(files))) {
        const key = `${repo} ${dtype}`;
        if (files === null) {
          expect(offered.has(key), `${key}: never seen on the hub, so never offered`).toBe(false);
          continue;
        }
        expect(offered.has(key) || key in NOT_OFFERED, `${key}: the hub has it; offer it or say why not`).toBe(true);
        expect(offered.has(key) && key in NOT_OFFERED, `${key}: offered and listed as not offered`).toBe(false);
      }
    }
  });

  it("puts the revision in every file URL", () => {
    const device = { webgpu: true, fallbackAdapter: false, shaderF16: true, cores: 4, crossOriginIsolated: false };
    for (const { entry, variant } of transformersVariants) {
      const source = toModelSource({ ...resolveVariant({ ...entry, variants: [variant] }, { ...device, webgpu: variant.device === "webgpu" })! });
      for (const file of source.files) {
        expect(modelFileUrl(source, file.path)).toBe(`https://huggingface.co/${variant.repo}/resolve/${repository(variant).revision}/${file.path}`);
      }
    }
  });
});
