import { generateText } from "ai";
import { describe, expect, it, vi } from "vitest";
import { humanizeModel, modelLabel } from "./model-label.js";
import { MissingApiKeyError, parseModelId, resolveModel } from "./resolve-model.js";

const KEY = "sk-test-SECRET-123";
const env = {
  ANTHROPIC_API_KEY: KEY,
  OPENAI_API_KEY: KEY,
  GOOGLE_GENERATIVE_AI_API_KEY: KEY,
  OPENROUTER_API_KEY: KEY,
};

describe("resolveModel", () => {
  it.each([
    ["anthropic/claude-sonnet-5-5", "anthropic", "claude-sonnet-5-5", "x-api-key", KEY],
    ["openai/gpt-5.5", "openai", "gpt-5.5", "authorization", `Bearer ${KEY}`],
    ["google/gemini-3-pro", "google", "gemini-3-pro", "x-goog-api-key", KEY],
    ["openrouter/anthropic/claude-opus-5.5", "openrouter", "anthropic/claude-opus-5.5", "authorization", `Bearer ${KEY}`],
  ])("%s goes through the provider's AI SDK package with the key from env", async (id, provider, modelId, header, value) => {
    // A fetch double in place of the provider's API: it records the request and refuses it.
    const providerFetch = vi.fn(async () => new Response("{}", { status: 500 }));
    const model = resolveModel(id, { env, fetch: providerFetch as typeof fetch });
    expect(typeof model === "object" && model.provider.startsWith(provider)).toBe(true);
    expect(typeof model === "object" && model.modelId).toBe(modelId);
    await generateText({ model, prompt: "hi", maxRetries: 0 }).catch(() => {});
    const init = (providerFetch.mock.calls as unknown as Array<[unknown, RequestInit]>)[0]?.[1];
    expect(new Headers(init?.headers).get(header)).toBe(value);
  });

  it("throws a TypeError naming the supported providers for an unknown one", () => {
    expect(() => resolveModel("mistral/large", { env })).toThrow(TypeError);
    expect(() => resolveModel("mistral/large", { env })).toThrow(/anthropic, openai, google, openrouter/);
  });

  it("throws a TypeError for an id without a provider or model", () => {
    expect(() => parseModelId("gpt-5.5")).toThrow(/"<provider>\/<model>"/);
    expect(() => parseModelId("openai/")).toThrow(TypeError);
  });

  it("throws MissingApiKeyError naming the variable when the key is not set", () => {
    let error: unknown;
    try {
      resolveModel("google/gemini-3-pro", { env: { GOOGLE_GENERATIVE_AI_API_KEY: " " } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MissingApiKeyError);
    expect(error).toMatchObject({ code: "missing_api_key", variable: "GOOGLE_GENERATIVE_AI_API_KEY" });
  });
});

describe("modelLabel", () => {
  it.each([
    ["openai/gpt-5.5", "GPT-5.5 (cloud)"],
    ["openai/gpt-4o-mini", "GPT-4o Mini (cloud)"],
    ["openrouter/anthropic/claude-opus-5.5", "Claude Opus 5.5 via OpenRouter (cloud)"],
    ["openrouter/openai/gpt-5.5:free", "GPT-5.5 via OpenRouter (cloud)"],
    ["anthropic/claude-opus-5-5", "Claude (cloud)"],
    ["google/gemini-2.5-flash", "Gemini 2.5 Flash (cloud)"],
    ["mock/scripted", "Scripted (cloud)"],
  ])("%s -> %s", (id, label) => {
    expect(modelLabel(id)).toBe(label);
  });

  it("joins dashed versions and drops date suffixes", () => {
    expect(humanizeModel("claude-opus-4-1-20250805")).toBe("Claude Opus 4.1");
    expect(humanizeModel("o4-mini")).toBe("o4 Mini");
    expect(humanizeModel("llama-3.3-70b")).toBe("Llama 3.3 70B");
  });
});
