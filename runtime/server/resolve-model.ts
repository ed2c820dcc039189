import type { LanguageModel } from "ai";
import { WebAgentsError } from "../core/web-agents-error.js";
import { providerModel } from "./load-provider-model.js";

/** The providers {@link resolveModel} knows, by the prefix of a model id. */
export type ModelProvider = "anthropic" | "openai" | "google" | "openrouter";

/** Each provider's API key variable. */
export const PROVIDER_KEYS: Readonly<Record<ModelProvider, string>> = Object.freeze({
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
});

/** What {@link resolveModel} takes besides the id. */
export interface ResolveModelOptions {
  /** Where the API keys are read. Default `process.env` (an empty object where there is none, as on some edge runtimes). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The function the provider calls its API with: for tests and proxies. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** A model id split at its first `/`. */
export interface ModelId {
  provider: ModelProvider;
  /** The provider's own id: `"gpt-5.5"`, or `"anthropic/claude-opus-5.5"` on OpenRouter. */
  model: string;
}

/**
 * Splits `"<provider>/<model>"`.
 *
 * @throws TypeError for an id without a provider or a model, or an unknown provider.
 */
export function parseModelId(id: string): ModelId {
  const slash = typeof id === "string" ? id.indexOf("/") : -1;
  const provider = slash > 0 ? id.slice(0, slash) : "";
  const model = slash > 0 ? id.slice(slash + 1) : "";
  const supported = Object.keys(PROVIDER_KEYS).join(", ");
  if (provider === "" || model === "") {
    throw new TypeError(
      `The model ${JSON.stringify(id)} needs a provider: write "<provider>/<model>", for example "openai/gpt-5.5" (providers: ${supported}).`,
    );
  }
  if (!(provider in PROVIDER_KEYS)) {
    throw new TypeError(
      `The model provider ${JSON.stringify(provider)} is not supported; use one of ${supported}, or pass a LanguageModel from an AI SDK provider.`,
    );
  }
  return { provider: provider as ModelProvider, model };
}

/** The error for a provider whose API key is not set: the handler then reports `enabled: false`. */
export class MissingApiKeyError extends WebAgentsError {
  /** The variable to set. */
  readonly variable: string;

  constructor(variable: string, modelId: string) {
    super("missing_api_key", `Set ${variable} on the server to use ${modelId}.`);
    this.name = "MissingApiKeyError";
    this.variable = variable;
  }
}

/**
 * The AI SDK model for `"<provider>/<model>"`: `anthropic/…`, `openai/…`,
 * `google/…` or `openrouter/<vendor>/<model>`, through the AI SDK provider
 * packages, with the key from `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`,
 * `GOOGLE_GENERATIVE_AI_API_KEY` or `OPENROUTER_API_KEY`. The provider
 * packages are optional peer dependencies: install the one you use
 * (`npm install @ai-sdk/openai`); it is imported on the model's first call,
 * and a missing one fails that call with the command to run.
 *
 * @throws TypeError for a malformed id or an unknown provider (naming the supported ones).
 * @throws MissingApiKeyError (code `missing_api_key`) when the provider's key is not set.
 */
export function resolveModel(id: string, options: ResolveModelOptions = {}): LanguageModel {
  const { provider, model } = parseModelId(id);
  const env = options.env ?? defaultEnv();
  const variable = PROVIDER_KEYS[provider];
  const apiKey = env[variable]?.trim();
  if (!apiKey) throw new MissingApiKeyError(variable, id);
  const settings = options.fetch === undefined ? { apiKey } : { apiKey, fetch: options.fetch };
  return providerModel(provider, model, settings);
}

function defaultEnv(): Readonly<Record<string, string | undefined>> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}
