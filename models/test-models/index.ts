/**
 * Test models the project builds itself (no model hub here): transformers.js
 * folders for a tiny random-weight Qwen3, a scripted tool-calling stand-in,
 * and random-weight models in Qwen3-0.6B's shapes for benchmarks. Node only.
 * @module
 */
export { DEFAULT_MODELS_ROOT, ensureTestModel, type EnsuredTestModel, type EnsureTestModelOptions } from "./ensure-test-model.js";
export { formatToolCall, toPythonStyleJson, type QwenToolCall } from "./format-tool-call.js";
export { qwen3ShapedModel, type Qwen3ShapedModelOptions } from "./qwen3-shaped-model.js";
export { QWEN3_0_6B_SHAPE, TINY_QWEN3_SHAPE, type Qwen3Shape } from "./qwen3-shape.js";
export { DEFAULT_SCRIPTED_ANSWER, DEFAULT_SCRIPTED_TOOL_CALL, scriptedModel, scriptedReplies, type ScriptedModelOptions } from "./scripted-model.js";
export { SCRIPTED_LOGIT } from "./scripted-graph.js";
export { allTestModels, defaultTestModels, SHAPED_DTYPES } from "./test-model-catalog.js";
export { DTYPE_FILE_NAMES, type TestModelDefinition, type TestModelDtype } from "./test-model-definition.js";
export { MANIFEST_FILE, readTestModelManifest, type TestModelFile, type TestModelManifest } from "./test-model-manifest.js";
export { tinyModel, type TinyModelOptions } from "./tiny-model.js";
export { writeTestModel, type WriteTestModelOptions } from "./write-test-model.js";
