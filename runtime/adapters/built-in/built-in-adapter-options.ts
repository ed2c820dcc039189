import type { PromptApi, PromptApiSamplingMode } from "./prompt-api.js";

/** How each reply is generated (`createBuiltInAdapter({ generation })`). */
export interface BuiltInGenerationOptions {
  /**
   * The Prompt API's sampling preset for every session. Default: the
   * browser's (`"balanced"`). Web pages get this one; the raw parameters
   * below are honoured only where the browser still allows them.
   */
  samplingMode?: PromptApiSamplingMode;
  /**
   * The legacy raw parameter: Chrome honours it in extension contexts only
   * and ignores it on web pages. Not sent with `samplingMode` (the browser
   * refuses both together). Default: not sent.
   */
  temperature?: number;
  /** As `temperature`: extension contexts only. Default: not sent. */
  topK?: number;
}

/** What `createBuiltInAdapter` takes. Every field is optional. */
export interface BuiltInAdapterOptions {
  /** Default `"built-in"`. The switcher and the conversation's storage know the adapter by it. */
  id?: string;
  /** Default `"Built into this browser"`. */
  label?: string;
  /** Tool steps per user message when the agent sets no `maxSteps`. Default `LIMITS.maxSteps` (8). */
  maxSteps?: number;
  generation?: BuiltInGenerationOptions;
  /**
   * The languages the person writes in and the model answers in, as BCP 47
   * tags (`expectedInputs` / `expectedOutputs`). A language the browser's
   * model does not support makes the adapter `unavailable`, saying so.
   * Chrome's supports English, Japanese and Spanish. Default `["en"]`.
   */
  languages?: string[];
  /**
   * Start the model where the browser already has it (`available`), with no
   * user activation needed: the adapter goes `loading`, then `ready`. Default true.
   */
  autoLoad?: boolean;
  /**
   * The Prompt API to use; `null` for none (as a browser without it). Default:
   * the page's `LanguageModel`, read when the adapter first checks. Tests
   * pass a double (runtime/test-support/language-model-double/).
   */
  languageModel?: PromptApi | null;
}
