// The store's adapters, created once at module scope: the browser's own model
// first where the browser has one (Chrome's Prompt API), then the model on
// this device, then the site's /api/chat as the fallback.
import { createBuiltInAdapter, createCloudAdapter, createLocalAdapter } from "@webmcp-agents/chat";
import { exampleModels, modelFromAddress, modelsBaseUrl } from "../shared/on-device-models.js";

const model = modelFromAddress();

/** The model built into the browser, where the browser exposes the Prompt API to pages; `undefined` elsewhere. */
export const builtIn = "LanguageModel" in globalThis ? createBuiltInAdapter() : undefined;

export const local = createLocalAdapter({
  catalog: { models: exampleModels(["store-scripted", "store-scripted-qwen35", "store-scripted-reviews"]), ...(model && { model }) },
  worker: { baseUrl: modelsBaseUrl },
});

export const cloud = createCloudAdapter();
