import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_BENCH_MODEL } from "./bench-types.js";

/** The bench's default model: `tiny` with a chat template whose reply starts with a word. */
export const VISIBLE_TEXT_MODEL_ID = DEFAULT_BENCH_MODEL;

/** The built model it is made from. */
const SOURCE_ID = "tiny";

/**
 * What the template writes after the assistant's opening (and Qwen3's empty
 * think block). `tiny` ties its head to its embedding and has two layers of
 * width 32, so greedy decoding repeats the prompt's last token: after the
 * template's closing newline it writes 64 newlines, which the format holds
 * back as whitespace and nothing reaches the screen. Ended with "The cart",
 * it writes " cart" again and again: visible text, the same on every path.
 */
export const REPLY_OPENING = "The cart";

/** `tiny-text`'s files: `tiny`'s, with the chat template's generation prompt ending in {@link REPLY_OPENING}. */
export interface VisibleTextModel {
  id: string;
  dtype: string;
  files: { path: string; bytes: number; sha256: string }[];
  format: "qwen3";
  /** The bytes of a file that differs from `tiny`'s; other paths are read from `tiny`'s folder. */
  override(path: string): Buffer | undefined;
  /** `tiny`'s folder. */
  folder: string;
}

/** `tiny-text`, when `tiny` is built under `root`. */
export function visibleTextModel(root: string): VisibleTextModel | undefined {
  const folder = join(root, SOURCE_ID);
  if (!existsSync(join(folder, "manifest.json"))) return undefined;
  const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as { dtype: string; files: { path: string; bytes: number; sha256: string }[] };
  const config = JSON.parse(readFileSync(join(folder, "tokenizer_config.json"), "utf8")) as { chat_template: string };
  const closing = "{{- '<think>\\n\\n</think>\\n\\n' }}";
  if (!config.chat_template.includes(closing)) return undefined;
  config.chat_template = config.chat_template.replace(closing, `{{- '<think>\\n\\n</think>\\n\\n${REPLY_OPENING}' }}`);
  const tokenizerConfig = Buffer.from(JSON.stringify(config));
  const files = manifest.files
    .filter((file) => file.path !== "manifest.json")
    .map((file) =>
      file.path === "tokenizer_config.json" ? { path: file.path, bytes: tokenizerConfig.byteLength, sha256: createHash("sha256").update(tokenizerConfig).digest("hex") } : file,
    );
  return {
    id: VISIBLE_TEXT_MODEL_ID,
    dtype: manifest.dtype,
    files,
    format: "qwen3",
    folder,
    override: (path) => (path === "tokenizer_config.json" ? tokenizerConfig : undefined),
  };
}
