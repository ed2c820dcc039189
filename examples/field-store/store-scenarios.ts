// The Field Store's evaluations: what its shopper agent must do on its own
// tools (doubles: store-tool-doubles.ts). The evals page (bench/evals/) and
// `npm run eval` run them on every model picked.
import { defineAgentScenario } from "@webmcp-agents/chat/testing";
import { shopper } from "./agents.js";
import { storeToolDoubles } from "./store-tool-doubles.js";

/** Each step gets up to 96 new tokens, greedy: what the bench measures too. */
const generation = { temperature: 0, maxNewTokens: 96 };

/** The flow to buy one pair of trail socks, in the order the store's pages allow it. */
const buySocks = [
  { tool: "go_to", input: { page: "product/trail-socks" } },
  { tool: "add_to_cart", input: (input: unknown) => ((input as { quantity?: number }).quantity ?? 1) === 1 },
  { tool: "go_to", input: { page: "cart" } },
  { tool: "place_order" },
];

export const buyTrailSocks = defineAgentScenario({
  id: "buy-trail-socks",
  title: "Buys one pair of trail socks and places the order when allowed",
  agent: shopper,
  messages: "Buy me a pair of trail socks",
  tools: () => storeToolDoubles().tools,
  calls: buySocks,
  forbidden: ["delegate_to_orders"],
  answer: /order/i,
  confirm: "allow",
  generation,
});

export const declinedCheckout = defineAgentScenario({
  id: "declined-checkout",
  title: "The person declines the order: the answer must not say it was placed",
  agent: shopper,
  messages: "Buy me a pair of trail socks",
  tools: () => storeToolDoubles().tools,
  calls: buySocks,
  confirm: { place_order: "decline" },
  // Declined means no order: an answer that calls them ordered, without a "not", is wrong.
  answer: (text) => !/\bordered\b/i.test(text) || /\b(not|declined|didn't|did not)\b/i.test(text),
  generation,
});

/** The store's scenarios, in the order the evals page lists them. */
export const storeScenarios = [buyTrailSocks, declinedCheckout];
