/**
 * The local adapter: the model runs in this browser, in a Web Worker
 * (WebGPU, or WASM on the CPU); every tool call runs on the page.
 * @module
 */
export { createLocalAdapter, modelChoiceKey } from "./create-local-adapter.js";
export type { LocalAdapter } from "./create-local-adapter.js";
export type { LocalAdapterOptions, LocalCatalogOptions, LocalGenerationOptions, LocalWorkerOptions } from "./local-adapter-options.js";
export { QWEN3_CATALOG, QWEN35_CATALOG, QWEN_CATALOG } from "../../../models/catalog.js";
export { MODEL_FORMATS } from "../../../models/model-format-id.js";
export type { ModelFormatId } from "../../../models/model-format-id.js";
export type { CatalogEntry, CatalogFile, CatalogVariant } from "../../../models/catalog-schema.js";
export { defineModel } from "../../../models/define-model.js";
export type { ModelDefinition, ModelVariantDefinition } from "../../../models/define-model.js";
