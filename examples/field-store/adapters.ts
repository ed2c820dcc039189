// The store's adapters, created once at module scope: the model on this
// device first, the site's /api/chat as the fallback.
import { createCloudAdapter, createLocalAdapter } from "@webmcp-agents/chat";
import { exampleModels, modelFromAddress, modelsBaseUrl } from "../shared/on-device-models.js";

const model = modelFromAddress();

export const local = createLocalAdapter({
  catalog: { models: exampleModels(["store-scripted", "store-scripted-qwen35", "store-scripted-reviews"]), ...(model && { model }) },
  worker: { baseUrl: modelsBaseUrl },
});

export const cloud = createCloudAdapter();
