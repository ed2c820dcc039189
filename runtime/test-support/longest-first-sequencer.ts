import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Seconds per file from a full run (write-file-durations.mjs): the order on a fresh clone, which has no vitest cache. */
const HINTS = JSON.parse(readFileSync(new URL("./file-durations.json", import.meta.url), "utf8")) as Record<string, number>;
/** A file with neither a cached nor a hinted duration: a guess by tier. */
const GUESS: Record<string, number> = { package: 60, browser: 15, engine: 10, checks: 5 };

/**
 * Starts the longest files first, whatever their tier: vitest's own order
 * runs the tiers one after another (by project name), so the package
 * tier's two-minute file started last and ran alone at the end of a full
 * run. Longest first keeps both workers busy until the end.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return cached !== undefined ? cached / 1000 : (HINTS[path] ?? GUESS[spec.project.name] ?? 0.5);
    };
    const seconds = new Map(files.map((spec) => [spec, expected(spec)]));
    return [...files].sort((a, b) => seconds.get(b)! - seconds.get(a)!);
  }
}
