/**
 * The formats a catalog entry can name, declared once: the schema's check,
 * `defineModel`'s TypeError and the `ModelFormatId` type all come from this
 * list. A format is a model family's prompt and tool-call format
 * (`model-formats.ts` maps each id to its module).
 */
export const MODEL_FORMATS = ["qwen3", "qwen3.5"] as const;

/** One of {@link MODEL_FORMATS}. */
export type ModelFormatId = (typeof MODEL_FORMATS)[number];

/** The format of an entry that names none: every catalog written before formats is Qwen3's. */
export const DEFAULT_MODEL_FORMAT: ModelFormatId = "qwen3";
