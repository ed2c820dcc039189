/**
 * The browser tier's global setup (vitest.config.ts): builds every fixture
 * page, the example pages and the evals page once per run, before any browser test starts,
 * so no test waits for Vite to compile a page on its first request
 * (runtime/test-support/fixture-builds.ts). A build from the current sources is kept. With
 * `FIXTURES=dev` nothing is built and pages are compiled from source.
 */
import { BUILT_FIXTURES_VARIABLE, buildFixtures, fixtureFolders, servesFromSource, sourcesStamp } from "./fixture-builds.js";

export default async function setup(): Promise<void> {
  if (servesFromSource()) return;
  const started = performance.now();
  const folders = fixtureFolders();
  const built = await buildFixtures(folders);
  // The test files start after this and inherit the environment.
  process.env[BUILT_FIXTURES_VARIABLE] = sourcesStamp();
  if (built > 0) console.log(`[global setup] built ${built} of ${folders.length + 3} fixture, example and evals page builds in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
