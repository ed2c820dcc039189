import { fileURLToPath } from "node:url";
import { build, type Rollup } from "vite";
import type { LanguageModelDoubleOptions } from "./language-model-double.js";

const folder = fileURLToPath(new URL("./", import.meta.url));
let bundled: Promise<string> | undefined;

/** The double and its installer as one classic script (IIFE), built once per test file with Vite. */
function bundle(): Promise<string> {
  bundled ??= (async () => {
    const result = await build({
      configFile: false,
      root: folder,
      logLevel: "silent",
      build: {
        write: false,
        emptyOutDir: false,
        minify: false,
        lib: { entry: `${folder}install-language-model-double.ts`, formats: ["iife"], name: "LanguageModelDoubleBundle", fileName: "language-model-double" },
      },
    });
    const output = (Array.isArray(result) ? result[0] : result) as Rollup.RollupOutput;
    return output.output[0].code;
  })();
  return bundled;
}

/**
 * A script for Playwright's `addInitScript` that installs the double as
 * `LanguageModel` before any script of the page runs, as a browser exposes
 * its own (the double's options as JSON: plain data only). The page's
 * `globalThis.languageModelDouble` is its controller.
 */
export async function languageModelDoubleScript(options: Omit<LanguageModelDoubleOptions, "respond" | "countTokens" | "userActivation"> = {}): Promise<string> {
  return `${await bundle()}\nLanguageModelDoubleBundle.installLanguageModelDouble(${JSON.stringify(options)});`;
}
