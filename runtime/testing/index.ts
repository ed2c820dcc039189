/**
 * `@webmcp-agents/chat/testing`: scripted adapters for your own tests.
 * @module
 */
export { createScriptedAdapter } from "./create-scripted-adapter.js";
export type {
  RecordedRequest,
  ScriptedAdapter,
  ScriptedAdapterOptions,
  ScriptedRun,
} from "./create-scripted-adapter.js";
