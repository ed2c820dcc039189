import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "./ensure-test-model.js";
import { runBuildCli } from "./run-build-cli.js";
import { hashFile, MANIFEST_FILE, readTestModelManifest } from "./test-model-manifest.js";
import { tinyModel } from "./tiny-model.js";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "ensure-test-model-"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("ensureTestModel", () => {
  it("builds once, then skips a current build", async () => {
    const first = await ensureTestModel(tinyModel(), { root });
    expect(first.built).toBe(true);
    const second = await ensureTestModel(tinyModel(), { root });
    expect(second).toMatchObject({ built: false, buildMs: 0, folder: first.folder });
    expect(second.manifest).toEqual(first.manifest);
  });

  it("writes a manifest that lists every file with its size and hash", async () => {
    const { folder, manifest } = await ensureTestModel(tinyModel(), { root });
    expect(manifest).toMatchObject({ id: "tiny", modelType: "qwen3", dtype: "fp32" });
    expect(manifest.stamp).toMatch(/^[0-9a-f]{32}$/);
    for (const file of manifest.files) {
      expect(statSync(join(folder, file.path)).size).toBe(file.bytes);
      expect(hashFile(join(folder, file.path))).toBe(file.sha256);
    }
    expect(manifest.totalBytes).toBe(manifest.files.reduce((sum, file) => sum + file.bytes, 0));
    expect(JSON.parse(readFileSync(join(folder, MANIFEST_FILE), "utf8"))).toEqual(manifest);
  });

  it("rebuilds when the options change the stamp, a file is missing, or the manifest is gone", async () => {
    const { folder, manifest } = await ensureTestModel(tinyModel(), { root });
    const reseeded = await ensureTestModel(tinyModel({ seed: 7 }), { root });
    expect(reseeded.built).toBe(true);
    expect(reseeded.manifest.stamp).not.toBe(manifest.stamp);
    expect(reseeded.manifest.files.find((file) => file.path === "onnx/model.onnx")!.sha256).not.toBe(
      manifest.files.find((file) => file.path === "onnx/model.onnx")!.sha256,
    );

    unlinkSync(join(folder, "onnx", "model.onnx"));
    expect((await ensureTestModel(tinyModel({ seed: 7 }), { root })).built).toBe(true);
    unlinkSync(join(folder, MANIFEST_FILE));
    expect((await ensureTestModel(tinyModel({ seed: 7 }), { root })).built).toBe(true);
    expect((await ensureTestModel(tinyModel({ seed: 7 }), { root, force: true })).built).toBe(true);
  });

  it("publishes one complete folder when several builds of a model race", async () => {
    const raceRoot = join(root, "race");
    const results = await Promise.all([1, 2, 3].map(() => ensureTestModel(tinyModel(), { root: raceRoot })));
    const manifest = readTestModelManifest(join(raceRoot, "tiny"))!;
    for (const result of results) expect(result.manifest).toEqual(manifest);
    expect(readdirSync(raceRoot)).toEqual(["tiny"]);
  });

  it("removes stale files from an earlier build of the folder", async () => {
    const { folder } = await ensureTestModel(tinyModel(), { root });
    writeFileSync(join(folder, "onnx", "model.onnx_data"), "stale");
    await ensureTestModel(tinyModel(), { root, force: true });
    expect(existsSync(join(folder, "onnx", "model.onnx_data"))).toBe(false);
  });
});

describe("runBuildCli", () => {
  it("prints one line per model and exits 0, or usage and 2 on a bad argument", async () => {
    const lines: string[] = [];
    expect(await runBuildCli(["--only", "tiny", "--root", root], (line) => lines.push(line))).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tiny: (built in [\d.]+ s|up to date), [\d.]+ MB, dtype fp32 -> /);
    expect(readTestModelManifest(join(root, "tiny"))?.id).toBe("tiny");

    const errors: string[] = [];
    expect(await runBuildCli(["--shaped", "fp8"], (line) => errors.push(line))).toBe(2);
    expect(errors[0]).toContain('unknown dtype "fp8"');
    expect(errors[0]).toContain("npm run models:build");
  });
});
