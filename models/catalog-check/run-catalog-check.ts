/**
 * `npm run catalog:check [-- --write] [--base-url <url>] [--data <file> ...]`:
 * reads the hub's tree API at every revision the catalog pins and prints
 * each difference with the catalog's data files (`models/*-hub-files.json`):
 * files gone, other sizes, new hashes, a newer commit on main. `--write`
 * puts the hub's sizes and sha256 into the data files. Exit status 0 when
 * nothing differs (or `--write` fixed all of it), 1 when a difference
 * remains, 2 when the hub could not be read or an argument is wrong.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { HubRepositories } from "../hub-files.js";
import { compareWithHub, describeDifference, type HubRecord } from "./compare-with-hub.js";
import { fetchHubTree, fetchLatestRevision, HubReadError } from "./hub-tree.js";

const DEFAULT_DATA = ["../qwen3-hub-files.json", "../qwen35-hub-files.json"].map((path) => fileURLToPath(new URL(path, import.meta.url)));

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { write: { type: "boolean", default: false }, "base-url": { type: "string", default: "https://huggingface.co" }, data: { type: "string", multiple: true } },
    }));
  } catch (error) {
    console.error(`catalog:check: ${(error as Error).message}. Usage: npm run catalog:check -- [--write] [--base-url <url>] [--data <file> ...]`);
    return 2;
  }
  const baseUrl = values["base-url"]!;
  const dataFiles = values.data ?? DEFAULT_DATA;
  const data = dataFiles.map((file) => ({ file, repositories: JSON.parse(readFileSync(file, "utf8")) as HubRepositories }));
  const all: HubRepositories = Object.assign({}, ...data.map((entry) => entry.repositories));

  const records = new Map<string, HubRecord>();
  try {
    for (const [repo, repository] of Object.entries(all)) {
      const [files, latest] = await Promise.all([fetchHubTree(baseUrl, repo, repository.revision), fetchLatestRevision(baseUrl, repo)]);
      records.set(repo, { files, ...(latest !== undefined && { latest }) });
    }
  } catch (error) {
    if (!(error instanceof HubReadError)) throw error;
    console.error(`catalog:check: ${error.message}`);
    return 2;
  }

  const { differences } = compareWithHub(all, records);
  const revisionOf = (repo: string) => all[repo]!.revision;
  for (const difference of differences) console.log(describeDifference(difference, revisionOf));
  const fileCount = Object.values(all).reduce((sum, repository) => sum + Object.keys(repository.files).length, 0);
  console.log(`${differences.length} difference${differences.length === 1 ? "" : "s"} over ${Object.keys(all).length} repositories and ${fileCount} files, against ${baseUrl}.`);
  if (!values.write) return differences.length === 0 ? 0 : 1;

  for (const { file, repositories } of data) {
    const { updated } = compareWithHub(repositories, records);
    writeFileSync(file, `${JSON.stringify(updated, null, 2)}\n`);
  }
  const left = differences.filter((difference) => !difference.fixable);
  const written = differences.length - left.length;
  console.log(`Wrote ${written} size and sha256 change${written === 1 ? "" : "s"} to ${dataFiles.join(", ")}; ${left.length} left to decide by hand.`);
  return left.length === 0 ? 0 : 1;
}

process.exitCode = await main();
