import { appendFileSync, mkdirSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";

/**
 * Where every test's time against its timeout is written, one JSON line a
 * test, for `report-timeout-room.mjs`: a machine 2-3x slower than the one a
 * test was written on must still pass it, so no test should need more than
 * half of its timeout.
 */
export const TIMEOUT_ROOM_FILE = "test-results/timeout-room.jsonl";

let started = 0;
beforeEach(() => {
  started = performance.now();
});
afterEach((context) => {
  const ms = Math.round(performance.now() - started);
  const { task } = context;
  const line = { file: task.file.filepath, name: task.fullName ?? task.name, ms, timeout: task.timeout, state: task.result?.state };
  mkdirSync("test-results", { recursive: true });
  appendFileSync(TIMEOUT_ROOM_FILE, `${JSON.stringify(line)}\n`);
});
