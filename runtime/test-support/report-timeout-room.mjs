// Prints, after a run, the tests that needed more than half of their
// timeout (a machine 2-3x slower would fail them) and the ten slowest files.
// Reads test-results/timeout-room.jsonl (timeout-room.ts) and vitest.json.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

const root = process.cwd();
const name = (file) => relative(root, file);

if (existsSync("test-results/timeout-room.jsonl")) {
  const tests = readFileSync("test-results/timeout-room.jsonl", "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const tight = tests.filter((test) => test.timeout > 0 && test.ms > test.timeout / 2).sort((a, b) => b.ms / b.timeout - a.ms / a.timeout);
  console.log(`timeout room: ${tests.length} tests timed; ${tight.length} needed more than half of their timeout`);
  const line = (test) => `  ${Math.round((100 * test.ms) / test.timeout)}% (${test.ms} of ${test.timeout} ms) ${name(test.file)} > ${test.name}`;
  for (const test of tight) console.log(line(test));
  // How close the next ones come: the room a slower machine still has.
  const closest = tests.filter((test) => test.timeout > 0 && test.ms <= test.timeout / 2).sort((a, b) => b.ms / b.timeout - a.ms / a.timeout);
  console.log("the five closest under half:");
  for (const test of closest.slice(0, 5)) console.log(line(test));
}
if (existsSync("test-results/vitest.json")) {
  const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  const files = report.testResults.map((file) => ({ file: name(file.name), s: (file.endTime - file.startTime) / 1000 })).sort((a, b) => b.s - a.s);
  console.log("slowest files:");
  for (const { file, s } of files.slice(0, 10)) console.log(`  ${s.toFixed(1)} s ${file}`);
}
