// The agents a site registers: plain data, imported by its pages and by its
// /api/chat route alike. The browser sends only an agent's id.
import { defineWebAgent } from "@webmcp-agents/chat/agent";

export const shopper = defineWebAgent({
  id: "shopper",
  instructions: ["You help people shop at Field Store.", "Read the cart with get_cart before you change it."],
  tools: ["get_cart", "add_to_cart", "place_order"],
});

export const agents = [shopper];
