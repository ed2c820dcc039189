import { EngineError } from "./engine-error.js";
import type { ReadModelText } from "./read-model-text.js";

type Transformers = typeof import("@huggingface/transformers");
/** A transformers.js tokenizer. */
export type Tokenizer = InstanceType<Transformers["PreTrainedTokenizer"]>;

/**
 * The model's tokenizer, built from its own `tokenizer.json` and
 * `tokenizer_config.json` as transformers.js's `AutoTokenizer` would, with
 * two differences:
 *
 * - The files are read through `read` (the cache, at the model's pinned
 *   revision). transformers.js 4.3.2's `AutoTokenizer` first checks that
 *   `tokenizer_config.json` exists at `resolve/main` whatever `revision` says
 *   (`get_tokenizer_files` passes no options), so a model pinned to a commit
 *   would find no tokenizer offline.
 * - The chat template comes from `tokenizer_config.json`'s `chat_template`,
 *   else from `chat_template.jinja`, the file newer exports ship alone
 *   (transformers.js reads that file only for a few processors).
 *
 * Rejects with `load_failed` when a file is missing or there is no chat
 * template at all.
 */
export async function loadTokenizer(library: Transformers, read: ReadModelText, modelKey: string): Promise<Tokenizer> {
  const [tokenizerText, configText] = await Promise.all([read("tokenizer.json"), read("tokenizer_config.json")]);
  const missing = [tokenizerText === undefined && "tokenizer.json", configText === undefined && "tokenizer_config.json"].filter(Boolean);
  if (missing.length > 0) {
    throw new EngineError({ code: "load_failed", message: `${modelKey} has no ${missing.join(" or ")} on this device: download the model again.` });
  }
  const config = JSON.parse(configText!) as Record<string, unknown>;
  if (config.chat_template === undefined || config.chat_template === null) {
    const template = await read("chat_template.jinja");
    if (template === undefined) {
      throw new EngineError({
        code: "load_failed",
        message: `${modelKey} has no chat template: its tokenizer_config.json names none and it has no chat_template.jinja.`,
      });
    }
    config.chat_template = template;
  }
  const className = typeof config.tokenizer_class === "string" ? config.tokenizer_class.replace(/Fast$/, "") : "PreTrainedTokenizer";
  const candidate = (library as unknown as Record<string, unknown>)[className];
  const TokenizerClass =
    typeof candidate === "function" && candidate.prototype instanceof library.PreTrainedTokenizer
      ? (candidate as Transformers["PreTrainedTokenizer"])
      : library.PreTrainedTokenizer;
  return new TokenizerClass(JSON.parse(tokenizerText!), config);
}
