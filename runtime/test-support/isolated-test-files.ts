import { readdirSync, readFileSync } from "node:fs";

/**
 * The test files under `folders` that need a module graph of their own: a DOM
 * environment, a module mock, or a stubbed global or environment variable
 * (each would outlive its file where files share a worker's modules). The
 * rest of the `unit` tier runs without per-file isolation (vitest.config.ts),
 * which spares each file importing the runtime afresh.
 */
export function isolatedTestFiles(folders: readonly string[], root = process.cwd()): string[] {
  const needsIsolation = /@vitest-environment|vi\.(?:mock|doMock|stubGlobal|stubEnv)\(/;
  return folders.flatMap((folder) =>
    readdirSync(`${root}/${folder}`, { recursive: true, encoding: "utf8" })
      .filter((name) => /\.test\.tsx?$/.test(name) && !name.includes("node_modules"))
      .map((name) => `${folder}/${name}`)
      .filter((file) => needsIsolation.test(readFileSync(`${root}/${file}`, "utf8"))),
  );
}
