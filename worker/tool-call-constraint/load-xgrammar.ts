/**
 * Loads `@mlc-ai/web-xgrammar` (xgrammar compiled to wasm, embedded in one JS
 * file) where the engine runs. The file is UMD although its package.json says
 * `"type": "module"`: imported as ESM it exports nothing named and sets
 * `globalThis.xgrammar` instead, and in Node it takes the CommonJS branch and
 * calls `require`. So: in a browser (the engine worker, bundled by
 * vite.worker.config.ts) a dynamic import, then `globalThis.xgrammar`; in Node
 * (tests, benches) the file is evaluated as CommonJS with a real `require`.
 * Loaded once per realm, on the first constrained call (never before a first token).
 */
type XGrammarModule = typeof import("@mlc-ai/web-xgrammar");

/** The parts of xgrammar the constraint uses. */
export type XGrammar = Pick<XGrammarModule, "Grammar" | "GrammarCompiler" | "GrammarMatcher" | "TokenizerInfo" | "Testings">;

const isNode = typeof process !== "undefined" && !!process.versions?.node && typeof window === "undefined" && typeof (globalThis as { importScripts?: unknown }).importScripts !== "function";

let loading: Promise<XGrammar> | undefined;

async function loadInNode(): Promise<XGrammar> {
  // Node's built-ins by name at run time (Node 20.16+), never an import a site's bundler would try to resolve.
  const builtin = (process as unknown as { getBuiltinModule: (name: string) => unknown }).getBuiltinModule;
  const { createRequire } = builtin("module") as typeof import("node:module");
  const { readFileSync } = builtin("fs") as typeof import("node:fs");
  const vm = builtin("vm") as typeof import("node:vm");
  const require = createRequire(import.meta.url);
  const file = require.resolve("@mlc-ai/web-xgrammar");
  const module = { exports: {} as Record<string, unknown> };
  // Its Node branch also runs `await import("module")`: the main context's loader answers it.
  const wrapper = `(function (exports, module, require, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  const evaluate = vm.runInThisContext(wrapper, { filename: file, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }) as (...args: unknown[]) => void;
  evaluate(module.exports, module, require, file, file.replace(/[/\\][^/\\]*$/, ""));
  return module.exports as unknown as XGrammar;
}

async function loadInBrowser(): Promise<XGrammar> {
  // Bundled, the UMD file becomes CommonJS (named exports, or all under `default`); served as ESM
  // (Vite's dev server) it runs with `this` undefined and sets `globalThis.xgrammar`.
  const imported = (await import("@mlc-ai/web-xgrammar")) as Partial<XGrammarModule> & { default?: Partial<XGrammarModule> };
  const candidates = [imported, imported.default, (globalThis as { xgrammar?: Partial<XGrammarModule> }).xgrammar];
  const library = candidates.find((candidate) => typeof candidate?.GrammarMatcher === "function") as XGrammar | undefined;
  if (!library?.GrammarMatcher) throw new Error("@mlc-ai/web-xgrammar loaded without its exports (neither named exports nor globalThis.xgrammar).");
  return library;
}

/** Where xgrammar's own error lines go while {@link withXGrammarMessages} runs. */
let sink: ((line: string) => void) | undefined;

/**
 * Starts xgrammar's wasm with `console.error` swapped for a forwarder: the
 * module binds its error printer once, at start, so the forwarder stays its
 * printer, and {@link withXGrammarMessages} can take the lines (a schema it
 * cannot express prints `[FATAL] … Lookbehind is not supported yet`, then
 * throws a bare `Aborted()`).
 */
async function start(library: XGrammar): Promise<XGrammar> {
  const original = console.error;
  console.error = (...args: unknown[]) => (sink ? sink(args.map(String).join(" ")) : original.apply(console, args));
  try {
    (await library.Grammar.fromEBNF('root ::= "a"')).dispose();
  } finally {
    console.error = original;
  }
  return library;
}

/** Runs `task` with xgrammar's error lines collected, not printed; returns them with its result or error. */
export async function withXGrammarMessages<T>(task: () => Promise<T>): Promise<{ value?: T; error?: unknown; messages: string[] }> {
  const messages: string[] = [];
  const previous = sink;
  sink = (line) => messages.push(line);
  try {
    return { value: await task(), messages };
  } catch (error) {
    return { error, messages };
  } finally {
    sink = previous;
  }
}

/** xgrammar, loaded once. */
export function loadXGrammar(): Promise<XGrammar> {
  loading ??= (isNode ? loadInNode() : loadInBrowser()).then(start).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
