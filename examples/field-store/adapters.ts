// The store's adapters, created once at module scope: the model on this
// device first, the site's /api/chat as the fallback.
import { createCloudAdapter, createLocalAdapter } from "@webmcp-agents/chat";
import { exampleModels, modelFromAddress, modelsBaseUrl } from "../shared/on-device-models.js";

const model = modelFromAddress();

export const local = createLocalAdapter({
  models: exampleModels(["store-scripted", "store-scripted-qwen35", "store-scripted-reviews"]),
  baseUrl: modelsBaseUrl,
  ...(model && { model }),
});

export const cloud = createCloudAdapter();
