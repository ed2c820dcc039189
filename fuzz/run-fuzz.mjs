#!/usr/bin/env node
/**
 * `npm run fuzz`: every `*.fuzz.test.ts` target at 100,000 cases each (or
 * `FUZZ_RUNS`, or the first argument), then a table of cases and worst case
 * times per target. The same files run in `vitest run` (CI) at 10,000.
 *
 *   npm run fuzz            # 100,000 cases per target
 *   npm run fuzz -- 20000   # another count
 *   FUZZ_SEED=123 npm run fuzz   # replay a seed a report printed
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = process.argv[2] ?? process.env.FUZZ_RUNS ?? "100000";
if (!/^[1-9]\d*$/.test(runs)) {
  console.error(`npm run fuzz: the case count must be a positive integer; got ${JSON.stringify(runs)}.`);
  process.exit(2);
}
const reports = join(root, "test-results", "fuzz");
rmSync(reports, { recursive: true, force: true });

console.log(`Fuzzing every *.fuzz.test.ts target with ${Number(runs).toLocaleString("en")} cases each…`);
const started = Date.now();
const vitest = spawnSync("npx", ["vitest", "run", "--reporter=default", ".fuzz.test."], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_REPORT_DIR: reports },
});

const rows = existsSync(reports)
  ? readdirSync(reports)
      .filter((file) => file.endsWith(".json"))
      .map((file) => JSON.parse(readFileSync(join(reports, file), "utf8")))
  : [];
console.log(`\nFuzz report (${Math.round((Date.now() - started) / 1000)} s in all; reports in test-results/fuzz/):\n`);
console.log("| target | cases | time | worst case | worst on its own | seed |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const row of rows.sort((a, b) => a.target.localeCompare(b.target))) {
  console.log(
    `| ${row.target} | ${row.cases.toLocaleString("en")} | ${(row.totalMs / 1000).toFixed(1)} s | ${row.worstMs} ms | ${row.worstIsolatedMs} ms | ${row.seed} |`,
  );
}
if (vitest.status !== 0) {
  console.error("\nA fuzz target failed: its counterexample and seed are printed above (replay with FUZZ_SEED=<seed>).");
  process.exit(vitest.status ?? 1);
}
