/**
 * The built-in adapter: the model the browser itself ships (Chrome's Prompt
 * API, `LanguageModel`), with every tool call run on the page.
 * @module
 */
export { createBuiltInAdapter } from "./create-built-in-adapter.js";
export type { BuiltInAdapter } from "./create-built-in-adapter.js";
export type { BuiltInAdapterOptions, BuiltInGenerationOptions } from "./built-in-adapter-options.js";
