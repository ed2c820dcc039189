// Writes file-durations.json beside this script from the last run's
// test-results/vitest.json: each file of 3 s or more, in seconds. The
// longest-first sequencer (longest-first-sequencer.ts) starts those files
// first on a fresh clone, which has no vitest cache to order by. Run it
// after a full `npm test` when the slow files change: a stale entry only
// changes the order, never what runs.
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(process.cwd(), file.name), Math.round((file.endTime - file.startTime) / 1000)])
    .filter(([, seconds]) => seconds >= 3)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
);
writeFileSync(new URL("./file-durations.json", import.meta.url), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`wrote ${Object.keys(durations).length} files' durations to runtime/test-support/file-durations.json`);
