import type { LanguageModel } from "ai";

type ProviderModel = Exclude<LanguageModel, string>;
type ProviderSettings = { apiKey: string; fetch?: typeof fetch };

/** The AI SDK package behind each provider prefix, and how it makes a model. */
const PACKAGES = {
  anthropic: { name: "@ai-sdk/anthropic", load: async () => (await import("@ai-sdk/anthropic")).createAnthropic },
  openai: { name: "@ai-sdk/openai", load: async () => (await import("@ai-sdk/openai")).createOpenAI },
  google: { name: "@ai-sdk/google", load: async () => (await import("@ai-sdk/google")).createGoogleGenerativeAI },
  openrouter: { name: "@openrouter/ai-sdk-provider", load: async () => (await import("@openrouter/ai-sdk-provider")).createOpenRouter },
} as const;

/** The provider prefixes {@link providerModel} knows. */
export type ProviderName = keyof typeof PACKAGES;

/** The npm package a provider prefix needs, e.g. `@ai-sdk/openai` for `openai/…`. */
export function providerPackage(provider: ProviderName): string {
  return PACKAGES[provider].name;
}

/**
 * A model of an AI SDK provider package that is imported on the model's
 * first call, not when the server entry loads: the provider packages are
 * optional peer dependencies, so a site installs only the one it uses (and
 * a browser-only site none). A provider package that is not installed fails
 * the first call with an error that names the package to install.
 */
export function providerModel(provider: ProviderName, modelId: string, settings: ProviderSettings): ProviderModel {
  let loading: Promise<ProviderModel> | undefined;
  const load = () =>
    (loading ??= PACKAGES[provider].load().then(
      (create) => (create as (settings: ProviderSettings) => (id: string) => ProviderModel)(settings)(modelId),
      (error: unknown) => {
        loading = undefined;
        throw new Error(`The model ${provider}/${modelId} needs the ${PACKAGES[provider].name} package on the server: npm install ${PACKAGES[provider].name}`, { cause: error });
      },
    ));
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    // The AI SDK awaits this; it is read only when a request is made.
    get supportedUrls() {
      return load().then((model) => model.supportedUrls);
    },
    doGenerate: async (options) => (await load()).doGenerate(options as never),
    doStream: async (options) => (await load()).doStream(options as never),
  } as ProviderModel;
}
