// createBuiltInAdapter in headless Chromium over a double of the Prompt API
// (test-fixtures/built-in-page/; no built-in model runs here): the page's main
// thread stays free while a long reply streams (the bench's long-task
// recorder, and each chunk's handling timed), and a device the browser's
// model does not run on is explained in the chat.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixturePage, type FixturePage } from "../../test-support/open-fixture-page.js";

const fixture = fileURLToPath(new URL("./test-fixtures/built-in-page/", import.meta.url));
/**
 * No chunk's handling may be a long task (50 ms). The 5 ms budget is
 * a figure this prints, not a limit it asserts: on a shared 2-core machine a
 * descheduled page times the machine. What is asserted beside it is measured
 * within one run: the last chunks cost what the first did (linear reading).
 */
const LONG_TASK_MS = 50;

interface MainThreadRecord {
  longTasks: number;
  longestTaskMs: number;
  longTaskScripts: string[];
  chunks: number;
  medianChunkMs: number;
  earlyChunksMs: number;
  lateChunksMs: number;
  p99ChunkMs: number;
  maxChunkMs: number;
  totalMs: number;
  textOk: boolean;
}

describe("createBuiltInAdapter in Chromium (a double of the Prompt API)", () => {
  let fixturePage: FixturePage;
  beforeAll(async () => {
    fixturePage = await openFixturePage(fixture, { width: 800, height: 600 });
  }, 60_000);
  afterAll(() => fixturePage?.close());

  for (const kind of ["answer", "calls"] as const) {
    it(`keeps the main thread free while a 20,000-character ${kind === "answer" ? "answer" : "call"} streams in 8-character chunks`, async () => {
      // The best of three runs: a shared 2-core machine can stop the page mid-task, which times the machine, not the adapter.
      const records: MainThreadRecord[] = [];
      for (let run = 0; run < 3; run++) {
        records.push(
          (await fixturePage.page.evaluate(
            ([which, size]) => (window as unknown as { builtInPage: { mainThread(kind: string, size: number): Promise<MainThreadRecord> } }).builtInPage.mainThread(which, size),
            [kind, 20_000] as const,
          )) as MainThreadRecord,
        );
        const record = records.at(-1)!;
        console.log(`${kind} ${run + 1}: ${record.chunks} chunks, median ${record.medianChunkMs.toFixed(2)} ms, p99 ${record.p99ChunkMs.toFixed(2)} ms, max ${record.maxChunkMs.toFixed(2)} ms, ${record.longTasks} long tasks, ${Math.round(record.totalMs)} ms in all`);
      }
      for (const record of records) {
        expect(record.textOk).toBe(true);
        expect(record.chunks).toBeGreaterThan(2400);
      }
      const best = [...records].sort((a, b) => a.longTasks - b.longTasks || a.p99ChunkMs - b.p99ChunkMs)[0]!;
      expect(best.maxChunkMs, best.longTaskScripts.join("\n")).toBeLessThan(LONG_TASK_MS);
      // Linear reading, judged on the steadiest of the three runs: a reader that
      // re-scans what came before is slower at the end of every run, and a
      // machine that stalls the page does so in some runs only.
      // A reader that counts through the whole reply on each chunk measured 3x
      // here; a linear one 0.5x to 1.6x, one core shared with a full test run.
      const overLimit = (record: (typeof records)[number]) => record.lateChunksMs / (2 * record.earlyChunksMs + 5);
      const steadiest = [...records].sort((a, b) => overLimit(a) - overLimit(b))[0]!;
      for (const record of records) console.log(`${kind}: the first 500 chunks took ${record.earlyChunksMs.toFixed(1)} ms, the last 500 ${record.lateChunksMs.toFixed(1)} ms (each less its slowest tenth)`);
      expect(steadiest.lateChunksMs).toBeLessThan(2 * steadiest.earlyChunksMs + 5);
    });
  }

  it("a device the browser's model does not run on: the chat says why and takes no message", async () => {
    const { page, errors } = fixturePage;
    const chat = page.locator("[data-web-agents-ui]");
    await chat.getByText("This device does not qualify for the browser's built-in model").first().waitFor();
    expect(await chat.locator("textarea").isEnabled()).toBe(false);
    expect(errors).toEqual([]);
  });
});
