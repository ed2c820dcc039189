// The LanguageModel double's shape type-checked against the published
// typings, @types/dom-chromium-ai: tsc in a process of its own, seconds, so
// in the checks tier (vitest.config.ts), not the edit loop.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("the LanguageModel double's typings", () => {
  // Runs only where the published typings are installed (a devDependency); the check is tsc's, on a file written here.
  it.skipIf(!existsSync(`${root}node_modules/@types/dom-chromium-ai/index.d.ts`))(
    "its shape type-checks against @types/dom-chromium-ai (the web surface: without the extension-only members)",
    async () => {
      const folder = `${root}node_modules/.cache/language-model-double-typings/`;
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        `${folder}check.ts`,
        `/// <reference types="dom-chromium-ai" />
import { createLanguageModelDouble, type DoubleSession } from "${root}runtime/test-support/language-model-double/index.js";
type ExtensionOnly = "inputUsage" | "inputQuota" | "measureInputUsage" | "onquotaoverflow" | "topK" | "temperature";
type WebSession = Omit<LanguageModel, ExtensionOnly | "clone"> & { clone(options?: LanguageModelCloneOptions): Promise<WebSession> };
const { LanguageModel: Double } = createLanguageModelDouble();
declare const session: DoubleSession;
export const web: WebSession = session;
export const create: (options?: LanguageModelCreateOptions) => Promise<WebSession> = Double.create;
export const availability: (options?: LanguageModelCreateCoreOptions) => Promise<Availability> = Double.availability;
`,
      );
      writeFileSync(
        `${folder}tsconfig.json`,
        JSON.stringify({
          compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2023", "DOM", "DOM.Iterable"], strict: true, noEmit: true, skipLibCheck: true, types: ["node", "dom-chromium-ai"], typeRoots: [`${root}node_modules/@types`] },
          files: ["check.ts"],
        }),
      );
      const result = await promisify(execFile)(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", `${folder}tsconfig.json`]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      expect(result.stdout).toBe("");
    },
    60_000,
  );
});
