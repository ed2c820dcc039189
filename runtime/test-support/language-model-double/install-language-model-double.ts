import { createLanguageModelDouble, type LanguageModelDoubleController, type LanguageModelDoubleOptions } from "./language-model-double.js";

/**
 * Puts the double where a browser puts `LanguageModel` (on the global, for
 * every script of the page that runs after it) and its controller on
 * `globalThis.languageModelDouble`, for the test to drive. In Chromium the
 * browser tests run this before any page script (language-model-double-bundle.ts).
 */
export function installLanguageModelDouble(options: LanguageModelDoubleOptions = {}): LanguageModelDoubleController {
  const { LanguageModel, controller } = createLanguageModelDouble(options);
  Object.defineProperty(globalThis, "LanguageModel", { value: LanguageModel, configurable: true, writable: true, enumerable: false });
  Object.defineProperty(globalThis, "languageModelDouble", { value: controller, configurable: true, writable: true, enumerable: false });
  return controller;
}
