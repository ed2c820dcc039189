import { afterEach } from "vitest";
import { describeLivePages } from "./page-diagnostics.js";

// A browser test that fails (a timeout above all) prints where its pages
// stood: their progress attributes, status lines and last console lines.
afterEach(async (context) => {
  if (context.task.result?.state !== "fail") return;
  const report = await describeLivePages();
  if (report) console.error(`"${context.task.name}" failed.\n${report}`);
});
