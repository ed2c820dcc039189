// The agents of the cloud fixture page: imported by the page (ids only
// travel) and by the test's server (instructions stay there).
import { defineWebAgent } from "../../../../agent/index.js";

export const orders = defineWebAgent({
  id: "orders",
  description: "Answers questions about past orders.",
  instructions: ["track_order tells where an order is."],
  tools: ["track_order"],
  maxSteps: 2,
});

export const shopper = defineWebAgent({
  id: "shopper",
  instructions: ["You help people shop.", "Hand questions about past orders to the orders agent."],
  tools: ["get_cart", "add_to_cart", "place_order"],
  agents: [orders],
});
