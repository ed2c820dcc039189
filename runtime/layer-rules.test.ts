/**
 * The layer rules of ARCHITECTURE.md, checked by dependency-cruiser with the
 * repository's `.dependency-cruiser.cjs`: runtime never imports the widget or
 * React, the core only itself and runtime/errors, the server no browser code,
 * the worker no widget and no core, models nothing of the worker but its
 * protocol's types, and no value-import cycles.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const depcruise = fileURLToPath(new URL("../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url));

it("keeps the arrows between the layers", async () => {
  const run = promisify(execFile)(process.execPath, [depcruise, "--config", ".dependency-cruiser.cjs", "--output-type", "err", "runtime", "widget", "worker", "models", "examples"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = await run.then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
  );
  expect(result.code, result.output).toBe(0);
}, 60_000);
