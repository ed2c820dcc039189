/**
 * Test models the project builds itself (no model hub here): transformers.js
 * folders for a tiny random-weight Qwen3, a scripted tool-calling stand-in,
 * and random-weight models in Qwen3-0.6B's shapes for benchmarks; for
 * Qwen3.5, scripted stand-ins in its format (chat template, XML calls) and
 * random-weight `qwen3_5_text` models (tiny, and Qwen3.5-0.8B's shapes). Node only.
 * @module
 */
export { DEFAULT_MODELS_ROOT, ensureTestModel, type EnsuredTestModel, type EnsureTestModelOptions } from "./ensure-test-model.js";
export { formatToolCall, toPythonStyleJson, type QwenToolCall } from "./format-tool-call.js";
export { formatXmlParameterValue, formatXmlToolCall } from "./format-xml-tool-call.js";
export { QWEN35_CHAT_TEMPLATE } from "./qwen35-chat-template.js";
export { buildQwen35DecoderGraph, qwen35CacheInputs } from "./qwen35-decoder-graph.js";
export {
  DEFAULT_QWEN35_ANSWER,
  DEFAULT_QWEN35_INVALID_CALL,
  DEFAULT_QWEN35_REASONING,
  DEFAULT_QWEN35_TOOL_CALL,
  QWEN35_SCRIPTED_ID,
  qwen35ScriptedModel,
  qwen35ScriptedReplies,
  type Qwen35ScriptedModelOptions,
  type Qwen35ScriptReasoning,
} from "./qwen35-scripted-model.js";
export { QWEN35_0_8B_SHAPE, TINY_QWEN35_SHAPE, qwen35LayerTypes, type Qwen35LayerType, type Qwen35Shape } from "./qwen35-shape.js";
export { QWEN35_SHAPED_DTYPES, qwen35ShapedModel, tinyQwen35Model, type Qwen35ShapedModelOptions } from "./qwen35-shaped-model.js";
export { qwen35TokenizerFiles } from "./qwen35-tokenizer.js";
export { qwen3ShapedModel, type Qwen3ShapedModelOptions } from "./qwen3-shaped-model.js";
export { QWEN3_0_6B_SHAPE, TINY_QWEN3_SHAPE, type Qwen3Shape } from "./qwen3-shape.js";
export { DEFAULT_SCRIPTED_ANSWER, DEFAULT_SCRIPTED_TOOL_CALL, scriptedModel, scriptedReplies, type ScriptedModelOptions } from "./scripted-model.js";
export { SCRIPTED_LOGIT } from "./scripted-graph.js";
export { allTestModels, defaultTestModels, qwen35TestModels, SHAPED_DTYPES } from "./test-model-catalog.js";
export { DTYPE_FILE_NAMES, type TestModelDefinition, type TestModelDtype } from "./test-model-definition.js";
export { MANIFEST_FILE, readTestModelManifest, type TestModelFile, type TestModelManifest } from "./test-model-manifest.js";
export { tinyModel, type TinyModelOptions } from "./tiny-model.js";
export { withChatTemplateFile, type Qwen3TokenizerFiles } from "./qwen3-tokenizer.js";
export { writeTestModel, type WriteTestModelOptions } from "./write-test-model.js";
