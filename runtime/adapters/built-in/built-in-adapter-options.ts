import type { PromptApi, PromptApiSamplingMode } from "./prompt-api.js";
import { refuseUnknownOptions } from "../refuse-unknown-options.js";

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

/**
 * When the browser's model starts (`createBuiltInAdapter({ catalog })`): the
 * same group, and the same name, as `createLocalAdapter({ catalog })`.
 */
export interface BuiltInCatalogOptions {
  /**
   * Start the model where the browser already has it (`available`), with no
   * user activation needed: the adapter goes `loading`, then `ready`. Default true.
   */
  autoLoad?: boolean;
}

/** What `createBuiltInAdapter` takes, grouped as `createLocalAdapter`'s options are. Every field is optional. */
export interface BuiltInAdapterOptions {
  /** Default `"built-in"`. The switcher and the conversation's storage know the adapter by it. */
  id?: string;
  /** Default `"Built into this browser"`. */
  label?: string;
  /** Tool steps per user message when the agent sets no `maxSteps`. Default `LIMITS.maxSteps` (8). */
  maxSteps?: number;
  catalog?: BuiltInCatalogOptions;
  generation?: BuiltInGenerationOptions;
  /**
   * The languages the person writes in and the model answers in, as BCP 47
   * tags (`expectedInputs` / `expectedOutputs`). A language the browser's
   * model does not support makes the adapter `unavailable`, saying so.
   * Chrome's supports English, Japanese and Spanish. Default `["en"]`.
   */
  languages?: string[];
  /**
   * The Prompt API to use; `null` for none (as a browser without it). Default:
   * the page's `LanguageModel`, read when the adapter first checks. Tests
   * pass a double (runtime/test-support/language-model-double/).
   */
  languageModel?: PromptApi | null;
}

// The names from before the options were grouped as the local adapter's are, and where each went.
const MOVED: Record<string, string> = { autoLoad: "catalog.autoLoad" };
const KNOWN = new Set(["id", "label", "maxSteps", "catalog", "generation", "languages", "languageModel"]);

/** `options` checked: a name the adapter does not take is a TypeError that says what to pass instead (never silently dropped). */
export function readBuiltInAdapterOptions(options: BuiltInAdapterOptions): BuiltInAdapterOptions {
  refuseUnknownOptions("createBuiltInAdapter", options, KNOWN, MOVED, "docs/api/create-built-in-adapter.md");
  return options;
}
