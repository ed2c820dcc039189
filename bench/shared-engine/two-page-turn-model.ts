import type { BrowserContext } from "playwright-core";
import { formatToolCall, readTestModelManifest, scriptedModel } from "../../models/test-models/index.js";
import { STORE_SCRIPTED_REFUSAL } from "../../models/test-models/example-scripted-models.js";
import type { TestModelDefinition } from "../../models/test-models/index.js";

/** The folder of the bench's shopper, beside the store's own `store-scripted`. */
export const TWO_PAGE_TURN_ID = "bench-two-page-turn";
/** What it answers once the cart page is open. */
export const TWO_PAGE_TURN_ANSWER = "Here is your cart: the trail socks are in it.";

/**
 * The multi-page Field Store's scripted shopper (models/test-models/
 * example-scripted-models.ts, built the same way), cut to the two pages the
 * figure is about: asked on a product page, it opens the cart (`go_to`, a
 * full page load; no call that waits for the person's Allow), and answers
 * there once the turn has gone on.
 */
export function twoPageTurnModel(): TestModelDefinition {
  return scriptedModel({
    id: TWO_PAGE_TURN_ID,
    replies: [formatToolCall({ name: "go_to", arguments: { page: "cart" } }), TWO_PAGE_TURN_ANSWER],
    refusal: STORE_SCRIPTED_REFUSAL,
  });
}

/**
 * Serves the store's on-device model list (`plain-html/models.json`, which
 * offers `store-scripted`) with the bench's shopper in its place: the same
 * entry, this model's folder and files.
 */
export async function offerTwoPageTurnModel(context: BrowserContext, folder: string): Promise<void> {
  const manifest = readTestModelManifest(folder);
  if (!manifest) throw new Error(`No manifest in ${folder}.`);
  const files = manifest.files.map(({ path, bytes }) => ({ path, bytes }));
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  await context.route("**/plain-html/models.json", async (route) => {
    const response = await route.fetch();
    const entries = (await response.json()) as { variants: { repo: string }[] }[];
    const offered = entries.map((entry) => ({ ...entry, variants: entry.variants.map((variant) => ({ ...variant, repo: TWO_PAGE_TURN_ID, files, bytes })) }));
    await route.fulfill({ response, json: offered });
  });
}
