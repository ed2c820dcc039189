import { STORE_SCRIPTED_ANSWER, STORE_SCRIPTED_PRODUCT, storeScriptedModel } from "./example-scripted-models.js";
import { formatToolCall } from "./format-tool-call.js";
import { scriptedModel } from "./scripted-model.js";
import type { TestModelDefinition } from "./test-model-definition.js";

/** The Field Store shopper that reads the cart where it should add to it: its evaluation fails with `wrong-tool`. */
export const EVAL_WRONG_TOOL_ID = "eval-store-wrong-tool";
/** The Field Store shopper that adds two pairs when one was asked for: its evaluation fails with `wrong-input`. */
export const EVAL_WRONG_INPUT_ID = "eval-store-wrong-input";

/** `eval-store-wrong-tool`: the store's flow with `get_cart` in place of `add_to_cart`. */
export function evalWrongToolModel(): TestModelDefinition {
  return scriptedModel({
    id: EVAL_WRONG_TOOL_ID,
    replies: [
      formatToolCall({ name: "go_to", arguments: { page: `product/${STORE_SCRIPTED_PRODUCT}` } }),
      formatToolCall({ name: "get_cart", arguments: {} }),
      formatToolCall({ name: "go_to", arguments: { page: "cart" } }),
      formatToolCall({ name: "place_order", arguments: {} }),
      STORE_SCRIPTED_ANSWER,
    ],
  });
}

/** `eval-store-wrong-input`: the store's flow with `add_to_cart` given `{"quantity": 2}`. */
export function evalWrongInputModel(): TestModelDefinition {
  return scriptedModel({
    id: EVAL_WRONG_INPUT_ID,
    replies: [
      formatToolCall({ name: "go_to", arguments: { page: `product/${STORE_SCRIPTED_PRODUCT}` } }),
      formatToolCall({ name: "add_to_cart", arguments: { quantity: 2 } }),
      formatToolCall({ name: "go_to", arguments: { page: "cart" } }),
      formatToolCall({ name: "place_order", arguments: {} }),
      STORE_SCRIPTED_ANSWER,
    ],
  });
}

/** The scripted models the evals page offers: the store's right path (`store-scripted`) and the two that go wrong. */
export function evalScriptedModels(): TestModelDefinition[] {
  return [storeScriptedModel(), evalWrongToolModel(), evalWrongInputModel()];
}
