import { modelFormat } from "../../models/model-formats.js";
import type { GenerateRequest } from "../protocol.js";
import { constrainGeneration, type ConstrainedGeneration } from "./constrain-generation.js";
import { prepareTokenizerState, type TokenizerLike } from "./tokenizer-state.js";
import type { ToolCallConstraint } from "./tool-call-constraint.js";

type Transformers = typeof import("@huggingface/transformers");

/** The model as the constraint reads it: its logits width and end-of-turn ids. */
interface ModelLike {
  config?: { vocab_size?: number; text_config?: { vocab_size?: number } };
  generation_config?: { eos_token_id?: number | number[] | null };
}

const ids = (value: unknown): number[] => (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === "number");

/** The logits width and end-of-turn ids the constraint needs, or undefined where the model does not say. */
function modelFacts(model: unknown, tokenizer: unknown): { vocabSize: number; stopIds: number[] } | undefined {
  const { config, generation_config } = model as ModelLike;
  // A multimodal config keeps the language model's under text_config.
  const vocabSize = config?.vocab_size ?? config?.text_config?.vocab_size;
  if (typeof vocabSize !== "number") return undefined;
  return { vocabSize, stopIds: [...ids(generation_config?.eos_token_id), ...ids((tokenizer as { eos_token_id?: number | null }).eos_token_id)] };
}

/**
 * Reads the tokenizer's vocabulary for the constraint right after a load
 * (from IndexedDB under `modelKey` when this tokenizer was read before, else
 * built: a few hundred milliseconds), so that no first token waits for it.
 * A tokenizer it cannot read leaves generations unconstrained. Never rejects.
 */
export async function prepareToolCallConstraint(tokenizer: unknown, model: unknown, modelKey: string): Promise<void> {
  const facts = modelFacts(model, tokenizer);
  if (!facts) {
    console.warn("[web-agents] Tool calls will not be constrained for this model: its config.json names no vocab_size.");
    return;
  }
  try {
    await prepareTokenizerState(tokenizer as TokenizerLike, { modelKey, ...facts });
  } catch (error) {
    console.warn(`[web-agents] Tool calls will not be constrained for this model: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The constraint one transformers.js generation runs under, or undefined for
 * none: `constrainToolCalls: false`, nothing to constrain (`auto` /
 * `required` with no tools offered; `required` then behaves as `auto`), or a
 * tokenizer the constraint cannot read. `none` forbids the call opener
 * whether or not tools are offered. `onConstraint` sees it (benches, tests).
 */
export function constraintForRequest(
  request: Pick<GenerateRequest, "tools" | "toolChoice" | "constrainToolCalls" | "enableThinking" | "model">,
  context: { library: Transformers; tokenizer: unknown; model: unknown; maxNewTokens: number; onConstraint?: (constraint: ToolCallConstraint) => void },
): ConstrainedGeneration | undefined {
  const toolChoice = request.toolChoice ?? "auto";
  if (request.constrainToolCalls === false) return undefined;
  if (toolChoice !== "none" && request.tools.length === 0) return undefined;
  const facts = modelFacts(context.model, context.tokenizer);
  if (!facts) return undefined;
  let constrained: ConstrainedGeneration;
  try {
    constrained = constrainGeneration({
      library: context.library,
      tokenizer: context.tokenizer,
      ...facts,
      grammar: modelFormat(request.model.format).grammar(request.tools),
      toolChoice,
      thinking: request.enableThinking ?? false,
      maxNewTokens: context.maxNewTokens,
    });
  } catch {
    // The tokenizer cannot be read (told once, at load): this generation runs unconstrained.
    return undefined;
  }
  context.onConstraint?.(constrained.constraint);
  return constrained;
}
