/**
 * `@webmcp-agents/chat/testing`: scripted adapters for your own tests, and
 * the catalog entries of the project's own test models (`testModelEntries`).
 * @module
 */
export { createScriptedAdapter } from "./create-scripted-adapter.js";
export { testModelEntries } from "../../models/catalog-test-models.js";
export type { TestModelEntriesOptions } from "../../models/catalog-test-models.js";
export type {
  RecordedRequest,
  ScriptedAdapter,
  ScriptedAdapterOptions,
  ScriptedRun,
} from "./create-scripted-adapter.js";
