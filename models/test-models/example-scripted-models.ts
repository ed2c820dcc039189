import { formatToolCall } from "./format-tool-call.js";
import { formatXmlToolCall } from "./format-xml-tool-call.js";
import { scriptedModel } from "./scripted-model.js";
import type { TestModelDefinition } from "./test-model-definition.js";

/** The folder (and hub repo) name of the Field Store's scripted model. */
export const STORE_SCRIPTED_ID = "store-scripted";
/** The product the scripted shopper buys (a product of examples/field-store/catalog.ts). */
export const STORE_SCRIPTED_PRODUCT = "trail-socks";
/** What the scripted shopper answers once the order is placed. */
export const STORE_SCRIPTED_ANSWER = "Done: your trail socks are ordered. You can follow the order on the orders page.";

/**
 * What the scripted shoppers answer once a call was declined or failed (the
 * person's Don't allow, no click on Place order): the turn ends there, and
 * nothing was ordered.
 */
export const STORE_SCRIPTED_REFUSAL = "I stopped there: that step was not allowed or did not work, so nothing was ordered. Tell me what to change and I will try again.";

/**
 * The Field Store's shopping flow, one reply per tool-result turn: open the
 * product page, add one to the cart, open the cart, place the order (which
 * parks on the person's click), then answer.
 */
export const STORE_SCRIPTED_REPLIES: readonly string[] = [
  formatToolCall({ name: "go_to", arguments: { page: `product/${STORE_SCRIPTED_PRODUCT}` } }),
  formatToolCall({ name: "add_to_cart", arguments: { quantity: 1 } }),
  formatToolCall({ name: "go_to", arguments: { page: "cart" } }),
  formatToolCall({ name: "place_order", arguments: {} }),
  STORE_SCRIPTED_ANSWER,
];

/** The folder name of the Field Store's scripted model in Qwen3.5's format. */
export const STORE_SCRIPTED_QWEN35_ID = "store-scripted-qwen35";

/** The same shopping flow in Qwen3.5's XML calls (typed parameters: `quantity` is an integer). */
export const STORE_SCRIPTED_QWEN35_REPLIES: readonly string[] = [
  formatXmlToolCall({ name: "go_to", arguments: { page: `product/${STORE_SCRIPTED_PRODUCT}` } }),
  formatXmlToolCall({ name: "add_to_cart", arguments: { quantity: 1 } }),
  formatXmlToolCall({ name: "go_to", arguments: { page: "cart" } }),
  formatXmlToolCall({ name: "place_order", arguments: {} }),
  STORE_SCRIPTED_ANSWER,
];

/** `store-scripted-qwen35`: the Field Store's shopper with Qwen3.5's chat template and XML calls. */
export function storeScriptedQwen35Model(): TestModelDefinition {
  return scriptedModel({ id: STORE_SCRIPTED_QWEN35_ID, replies: STORE_SCRIPTED_QWEN35_REPLIES, refusal: STORE_SCRIPTED_REFUSAL, chatFormat: "qwen3.5" });
}

/** The folder name of the Field Store's scripted model that reads the reviews first. */
export const STORE_REVIEWS_SCRIPTED_ID = "store-scripted-reviews";
/** What it answers once the order is placed. */
export const STORE_REVIEWS_SCRIPTED_ANSWER = "Done: the reviews are good, so your trail socks are ordered.";

/**
 * The shopping flow with the product's reviews read first (the reviews
 * widget's `read_reviews`, annotated `untrustedContentHint`): every call
 * after it that changes something waits for the person's Allow.
 */
export const STORE_REVIEWS_SCRIPTED_REPLIES: readonly string[] = [
  formatToolCall({ name: "go_to", arguments: { page: `product/${STORE_SCRIPTED_PRODUCT}` } }),
  formatToolCall({ name: "read_reviews", arguments: {} }),
  formatToolCall({ name: "add_to_cart", arguments: { quantity: 1 } }),
  formatToolCall({ name: "go_to", arguments: { page: "cart" } }),
  formatToolCall({ name: "place_order", arguments: {} }),
  STORE_REVIEWS_SCRIPTED_ANSWER,
];

/** `store-scripted-reviews`: the Field Store's shopper that reads the reviews before buying (see {@link STORE_REVIEWS_SCRIPTED_REPLIES}). */
export function storeReviewsScriptedModel(): TestModelDefinition {
  return scriptedModel({ id: STORE_REVIEWS_SCRIPTED_ID, replies: STORE_REVIEWS_SCRIPTED_REPLIES, refusal: STORE_SCRIPTED_REFUSAL });
}

/** The folder name of the offline assistant's scripted model. */
export const ASSISTANT_SCRIPTED_ID = "assistant-scripted";
/** Its one answer, to any message. */
export const ASSISTANT_SCRIPTED_ANSWER = "Hello! I run on this device, so this conversation never leaves it.";

/** `store-scripted`: a weightless scripted Qwen3 stand-in that shops at the Field Store (see {@link STORE_SCRIPTED_REPLIES}). */
export function storeScriptedModel(): TestModelDefinition {
  return scriptedModel({ id: STORE_SCRIPTED_ID, replies: STORE_SCRIPTED_REPLIES, refusal: STORE_SCRIPTED_REFUSAL });
}

/** `assistant-scripted`: answers any message with {@link ASSISTANT_SCRIPTED_ANSWER}, no tool call (the offline assistant's tests). */
export function assistantScriptedModel(): TestModelDefinition {
  return scriptedModel({ id: ASSISTANT_SCRIPTED_ID, replies: [ASSISTANT_SCRIPTED_ANSWER] });
}

/** The examples' scripted models, built by `npm start` when test models are on. */
export function exampleTestModels(): TestModelDefinition[] {
  return [storeScriptedModel(), storeScriptedQwen35Model(), storeReviewsScriptedModel(), assistantScriptedModel()];
}
