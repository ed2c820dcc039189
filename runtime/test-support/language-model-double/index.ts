/**
 * A `LanguageModel` double (Chrome's Prompt API, from the explainer's IDL)
 * for tests: no real built-in model runs in this repository's tests.
 * @module
 */
export { createLanguageModelDouble, DoubleSession } from "./language-model-double.js";
export type { DoubleAvailability, DoubleCall, DoubleMessage, DoublePromptRequest, LanguageModelDouble, LanguageModelDoubleController, LanguageModelDoubleOptions } from "./language-model-double.js";
export { installLanguageModelDouble } from "./install-language-model-double.js";
