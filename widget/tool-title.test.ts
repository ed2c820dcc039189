import { describe, expect, it } from "vitest";
import { titleFromName, toolTitle } from "./tool-title.js";

describe("toolTitle", () => {
  it("words a tool's name for a person when it has no title", () => {
    expect(titleFromName("go_to")).toBe("Go to");
    expect(titleFromName("addToCart")).toBe("Add to cart");
    expect(titleFromName("list-orders")).toBe("List orders");
    expect(titleFromName("place_order")).toBe("Place order");
    expect(titleFromName("__")).toBe("__");
    expect(toolTitle("track_order")).toBe("Track order");
    expect(toolTitle("delegate_to_orders")).toBe("orders agent");
  });
});
