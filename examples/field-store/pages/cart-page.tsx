import { useRef, type ReactNode } from "react";
import { useWebTool } from "@webmcp-agents/chat";
import { formatPrice } from "../catalog.js";
import { navigate } from "../router.js";
import { cartTotal, describeLine, placeOrder, removeFromCart } from "../store-state.js";
import { useCart } from "../use-store.js";

export function CartPage(): ReactNode {
  const cart = useCart();
  // True while the agent's place_order waits for the person's click: that
  // click confirms the agent's call, which places the order itself.
  const agentWaiting = useRef(false);

  useWebTool({
    name: "place_order",
    description: "Place the order for everything in the cart. The person confirms with the Place order button.",
    annotations: { consequentialHint: true },
    async execute(_input, { waitForClick }) {
      agentWaiting.current = true;
      try {
        await waitForClick("#place-order", "Click Place order to confirm.");
      } catch (error) {
        agentWaiting.current = false;
        throw error;
      }
      const order = placeOrder();
      return { orderId: order.id, total: order.total, items: order.lines.map(describeLine) };
    },
  });

  const lines = cart.map(describeLine);
  return (
    <section>
      <h1>Your cart</h1>
      {lines.length === 0 ? (
        <p>Your cart is empty.</p>
      ) : (
        <>
          <table className="lines">
            <tbody>
              {lines.map((line) => (
                <tr key={line.productId}>
                  <td>{line.name}</td>
                  <td>× {line.quantity}</td>
                  <td>{formatPrice(line.price * line.quantity)}</td>
                  <td>
                    <button type="button" className="link" onClick={() => removeFromCart(line.productId)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="price">Total {formatPrice(cartTotal(cart))}</p>
        </>
      )}
      <button
        type="button"
        id="place-order"
        disabled={lines.length === 0}
        onClick={() => {
          if (agentWaiting.current) {
            agentWaiting.current = false;
            return;
          }
          placeOrder();
          navigate({ page: "orders" });
        }}
      >
        Place order
      </button>
    </section>
  );
}
