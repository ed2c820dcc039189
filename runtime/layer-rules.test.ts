/**
 * The layer rules of ARCHITECTURE.md, checked by dependency-cruiser with the
 * repository's `.dependency-cruiser.cjs`: first on the repository (no
 * violation), then on a small planted tree that breaks each rule once, to
 * show the rules do fail, with the rule's name, on the import that breaks it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const depcruise = fileURLToPath(new URL("../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url));
const config = join(root, ".dependency-cruiser.cjs");

async function cruise(cwd: string, folders: string[], outputType: "err" | "json"): Promise<{ code: number; output: string }> {
  return promisify(execFile)(process.execPath, [depcruise, "--config", config, "--output-type", outputType, ...folders], { cwd, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
  );
}

describe("the layer rules", () => {
  it("hold on the repository", async () => {
    const result = await cruise(root, ["runtime", "widget", "worker", "models", "examples"], "err");
    expect(result.code, result.output).toBe(0);
  }, 60_000);

  /** Files of the planted tree: path → its imports (`import type` when the name starts with `type `). */
  const PLANTED: Record<string, string[]> = {
    // Allowed arrows, none reported: the local adapter reaches the worker and models, the session the core.
    "runtime/adapters/local/run.ts": ["../../../worker/protocol.js", "../../../models/catalog.js", "../../session/agent-adapter.js", "../run-steps.js"],
    "runtime/session/agent-adapter.ts": ["../core/tool.js"],
    "runtime/core/tool.ts": [],
    "worker/protocol.ts": ["type ../models/catalog.js"],
    "widget/chat.tsx": ["../runtime/session/agent-adapter.js", "../runtime/adapters/cloud/wire.js"],
    // Each of these breaks one rule.
    "runtime/session/loop.ts": ["type ../../models/catalog.js", "../adapters/cloud/wire.js"],
    "runtime/adapters/cloud/wire.ts": ["../local/run.js", "type ../../../worker/protocol.js"],
    "runtime/adapters/run-steps.ts": ["../session/agent-adapter.js", "./fallback/pick.js"],
    "runtime/adapters/fallback/pick.ts": ["../../../models/catalog.js"],
    "widget/picker.tsx": ["../models/catalog.js"],
    "models/catalog.ts": ["./test-models/scripted.js", "type ../worker/protocol.js"],
    "models/test-models/scripted.ts": [],
  };

  let planted: string | undefined;
  afterAll(async () => {
    if (planted) await rm(planted, { recursive: true, force: true });
  });

  it("fail on a planted violation of each, naming the rule and the import", async () => {
    planted = await mkdtemp(join(tmpdir(), "layer-rules-"));
    await writeFile(join(planted, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "Bundler", jsx: "react-jsx", verbatimModuleSyntax: true } }));
    for (const [path, imports] of Object.entries(PLANTED)) {
      await mkdir(dirname(join(planted, path)), { recursive: true });
      const lines = imports.map((spec, index) =>
        spec.startsWith("type ") ? `import type { T${index} } from "${spec.slice(5)}";` : `import { v${index} } from "${spec}";`,
      );
      await writeFile(join(planted, path), `${lines.join("\n")}\nexport const v0 = 0, v1 = 1, v2 = 2, v3 = 3;\nexport type T0 = 0; export type T1 = 1;\n`);
    }
    // As CI runs it: the command fails.
    expect((await cruise(planted, ["runtime", "widget", "worker", "models"], "err")).code).not.toBe(0);
    const result = await cruise(planted, ["runtime", "widget", "worker", "models"], "json");
    const violations = (JSON.parse(result.output) as { summary: { violations: { from: string; to: string; rule: { name: string } }[] } }).summary.violations;
    const found = violations.filter((violation) => violation.rule.name !== "no-cycles").map(({ from, to, rule }) => `${rule.name}: ${from} -> ${to}`);
    expect(found.sort()).toEqual(
      [
        "session-knows-no-adapter-engine-or-model: runtime/session/loop.ts -> models/catalog.ts",
        "session-knows-no-adapter-engine-or-model: runtime/session/loop.ts -> runtime/adapters/cloud/wire.ts",
        "adapters-share-only-the-contract: runtime/adapters/cloud/wire.ts -> runtime/adapters/local/run.ts",
        "cloud-adapter-runs-no-model: runtime/adapters/cloud/wire.ts -> worker/protocol.ts",
        "adapters-below-the-widget: runtime/adapters/cloud/wire.ts -> worker/protocol.ts",
        "adapters-shared-files-know-no-adapter: runtime/adapters/run-steps.ts -> runtime/adapters/fallback/pick.ts",
        "adapters-below-the-widget: runtime/adapters/fallback/pick.ts -> models/catalog.ts",
        "widget-imports-the-runtime-only: widget/picker.tsx -> models/catalog.ts",
        "product-not-to-test-code: models/catalog.ts -> models/test-models/scripted.ts",
        "models-not-to-worker: models/catalog.ts -> worker/protocol.ts",
      ].sort(),
    );
  }, 60_000);
});
