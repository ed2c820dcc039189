import { afterEach, beforeEach } from "vitest";
import { describePages, forgetClosedPages } from "./page-diagnostics.js";

// A browser test that fails (a timeout above all) prints where its pages
// stood: their progress attributes, status lines, tool calls and last
// console lines, also of the pages it closed in its own `finally`.
// Pages another file closed in its afterAll are not this test's.
beforeEach(forgetClosedPages);
afterEach(async (context) => {
  try {
    if (context.task.result?.state !== "fail") return;
    const report = await describePages();
    if (report) console.error(`"${context.task.name}" failed.\n${report}`);
  } finally {
    forgetClosedPages();
  }
});
