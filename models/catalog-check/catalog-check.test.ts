// `npm run catalog:check` end to end, against a stand-in for the hub's API on
// 127.0.0.1 (the real hub cannot be reached here). The stand-in answers the
// documented tree API shape (huggingface.js `ListFileEntry`, paged with a Link
// header) from ../shared/hub/hub-facts.json, with differences planted.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HubRepositories } from "../hub-files.js";
import type { HubTreeEntry } from "./hub-tree.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const factsPath = join(root, "../shared/hub/hub-facts.json");
const facts = existsSync(factsPath)
  ? (JSON.parse(readFileSync(factsPath, "utf8")) as Record<string, { revision: string; files: Record<string, { bytes: number | null; sha256: string | null; exists: boolean | null }> }>)
  : undefined;
const dataFiles = ["models/qwen3-hub-files.json", "models/qwen35-hub-files.json"].map((file) => join(root, file));
const catalog = (): HubRepositories => Object.assign({}, ...dataFiles.map((file) => JSON.parse(readFileSync(file, "utf8"))));

const NEWER = "f".repeat(40);
const PLANTED_SHA = "0".repeat(64);
/** The differences planted in the stand-in. */
const plants = {
  missing: ["onnx-community/Qwen3-4B-ONNX", "onnx/model_q4f16.onnx_data_1"],
  resized: ["onnx-community/Qwen3.5-0.8B-ONNX-OPT", "onnx/decoder_model_merged_q4f16.onnx_data", 4096],
  rehashed: ["onnx-community/Qwen3.5-2B-ONNX-OPT", "onnx/decoder_model_merged_q4.onnx_data"],
  newer: "onnx-community/Qwen3-1.7B-ONNX",
} as const;

/** The tree the stand-in lists for `repo`: every file the facts say exists, LFS (with its sha256) where the facts know one for a file over 1 MB. */
function treeOf(repo: string): HubTreeEntry[] {
  const recorded = facts![repo]!;
  const estimates = catalog()[repo]?.files ?? {};
  return Object.entries(recorded.files)
    .filter(([path, file]) => file.exists === true && !(repo === plants.missing[0] && path === plants.missing[1]))
    .map(([path, file]) => {
      // A size the facts lack (two files of Qwen3 4B): the catalog's estimate stands in for the hub's answer.
      const size = (file.bytes ?? estimates[path]?.bytes ?? 1) + (repo === plants.resized[0] && path === plants.resized[1] ? plants.resized[2] : 0);
      const sha256 = repo === plants.rehashed[0] && path === plants.rehashed[1] ? PLANTED_SHA : file.sha256;
      const lfs = sha256 && size > 1_000_000 ? { lfs: { oid: sha256, size, pointerSize: 134 } } : {};
      return { type: "file" as const, path, size, oid: `${path.length}`.padStart(40, "a"), ...lfs };
    });
}

function standInHub(): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const tree = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)$/.exec(url.pathname);
    const info = /^\/api\/models\/([^/]+\/[^/]+)$/.exec(url.pathname);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(body));
    };
    if (tree && facts![tree[1]!]) {
      const [, repo, revision] = tree;
      if (decodeURIComponent(revision!) !== facts![repo!]!.revision) return json(404, { error: "Invalid rev id" });
      const entries = treeOf(repo!);
      const half = Math.ceil(entries.length / 2);
      if (url.searchParams.get("cursor") === "2") return json(200, entries.slice(half));
      return json(200, entries.slice(0, half), { link: `<${url.pathname}?recursive=1&cursor=2>; rel="next"` });
    }
    if (info && facts![info[1]!]) return json(200, { id: info[1], sha: info[1] === plants.newer ? NEWER : facts![info[1]!]!.revision });
    json(404, { error: "Repository not found" });
  });
}

const run = (args: string[]) =>
  promisify(execFile)("node", ["models/catalog-check/run-catalog-check.mjs", ...args], { cwd: root }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe.skipIf(!facts)("npm run catalog:check against a stand-in for the hub's tree API on 127.0.0.1", () => {
  let server: Server;
  let baseUrl: string;
  let scratch: string;
  beforeAll(async () => {
    server = standInHub();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    scratch = mkdtempSync(join(tmpdir(), "catalog-check-"));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  it("prints exactly the planted differences, and the estimates the hub can now pin; exit status 1", async () => {
    const { code, stdout } = await run(["--base-url", baseUrl]);
    const lines = stdout.trim().split("\n");
    expect(lines.slice(0, -1).sort()).toEqual(
      [
        "onnx-community/Qwen3-4B-ONNX @ 5cbfbcacd84e: config.json is 1780 bytes, as the catalog estimated: the size can be pinned.",
        "onnx-community/Qwen3-4B-ONNX @ 5cbfbcacd84e: tokenizer_config.json is 10360 bytes, as the catalog estimated: the size can be pinned.",
        "onnx-community/Qwen3-4B-ONNX @ 5cbfbcacd84e: onnx/model_q4f16.onnx_data_1 is not in the repository at this revision (a download would end in a 404): drop it from the catalog.",
        "onnx-community/Qwen3.5-0.8B-ONNX-OPT @ fafab72d87a9: onnx/decoder_model_merged_q4f16.onnx_data is 435781632 bytes; the catalog says 435777536.",
        `onnx-community/Qwen3.5-2B-ONNX-OPT @ 2ea7886f48b9: onnx/decoder_model_merged_q4.onnx_data has sha256 ${PLANTED_SHA}; the catalog says ${catalog()[plants.rehashed[0]]!.files[plants.rehashed[1]]!.sha256}.`,
        `onnx-community/Qwen3-1.7B-ONNX @ cc6a06a21d61: main is now at ${NEWER}; the catalog pins cc6a06a21d614e9b8e92a6adfab1074d4e7d2438. Check that commit's files before moving the pin.`,
      ].sort(),
    );
    const files = Object.values(catalog()).reduce((sum, repository) => sum + Object.keys(repository.files).length, 0);
    expect(lines.at(-1)).toBe(`6 differences over 6 repositories and ${files} files, against ${baseUrl}.`);
    expect(code).toBe(1);
  }, 60_000);

  it("--write puts the hub's sizes and hashes in the data files, and leaves what needs a person (a missing file, a newer commit)", async () => {
    const copies = dataFiles.map((file) => {
      const copy = join(scratch, file.split("/").at(-1)!);
      copyFileSync(file, copy);
      return copy;
    });
    const data = copies.flatMap((copy) => ["--data", copy]);
    const written = await run(["--base-url", baseUrl, "--write", ...data]);
    expect(written.stdout.trim().split("\n").at(-1)).toBe(`Wrote 4 size and sha256 changes to ${copies.join(", ")}; 2 left to decide by hand.`);
    expect(written.code).toBe(1);
    const after: HubRepositories = Object.assign({}, ...copies.map((copy) => JSON.parse(readFileSync(copy, "utf8"))));
    expect(after[plants.resized[0]]!.files[plants.resized[1]]).toEqual({ bytes: 435_777_536 + plants.resized[2] });
    expect(after[plants.rehashed[0]]!.files[plants.rehashed[1]]!.sha256).toBe(PLANTED_SHA);
    expect(after["onnx-community/Qwen3-4B-ONNX"]!.files["config.json"]).toEqual({ bytes: 1780 });
    expect(after[plants.missing[0]]!.files[plants.missing[1]]).toEqual(catalog()[plants.missing[0]]!.files[plants.missing[1]]);
    // Everything else is as it was.
    expect(after["onnx-community/Qwen3-0.6B-ONNX"]).toEqual(catalog()["onnx-community/Qwen3-0.6B-ONNX"]);

    const again = await run(["--base-url", baseUrl, ...data]);
    expect(again.stdout.trim().split("\n")).toHaveLength(3);
    expect(again.stdout).toContain("onnx/model_q4f16.onnx_data_1 is not in the repository");
    expect(again.stdout).toContain(`main is now at ${NEWER}`);
  }, 60_000);

  it("says in a sentence when the hub cannot be read (exit status 2)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const { code, stderr } = await run(["--base-url", `http://127.0.0.1:${port}`]);
    expect(code).toBe(2);
    expect(stderr).toContain(`catalog:check: Could not reach 127.0.0.1:${port}`);
  }, 60_000);
});
