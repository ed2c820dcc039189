import type { ReactNode } from "react";
import { useWebTool } from "@webmcp-agents/chat";
import { formatPrice } from "../catalog.js";
import { describeLine, orderStatus } from "../store-state.js";
import { tools } from "../tools.js";
import { useOrders } from "../use-store.js";

export function OrdersPage(): ReactNode {
  const orders = useOrders();
  // Catalog tools this page owns: registered while it is open.
  useWebTool(tools.listOrders);
  useWebTool(tools.trackOrder);
  return (
    <section>
      <h1>Your orders</h1>
      {orders.length === 0 ? (
        <p id="orders-list">No orders yet.</p>
      ) : (
        <ul id="orders-list" className="orders">
          {orders.map((order) => {
            const { status, arrives } = orderStatus(order);
            return (
              <li key={order.id} data-order={order.id}>
                <strong>{order.id}</strong> · {order.lines.map((line) => `${describeLine(line).name} × ${line.quantity}`).join(", ")} ·{" "}
                {formatPrice(order.total)} · <span className="status">{status}</span>, arrives {arrives}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
