import { useState, type ReactNode } from "react";
import { useWebTool } from "@webmcp-agents/chat";
import { findProduct, formatPrice, type Product } from "../catalog.js";
import { ReviewsWidget } from "../reviews-widget.js";
import { addToCart, cartCount } from "../store-state.js";

const ADD_TO_CART_INPUT = {
  type: "object",
  properties: { quantity: { type: "integer", minimum: 1, maximum: 20, description: "How many. Default 1." } },
  additionalProperties: false,
} as const;

function ProductDetails({ product }: { product: Product }): ReactNode {
  const [quantity, setQuantity] = useState(1);

  // Only on a product's page: the tool adds this page's product.
  useWebTool<{ quantity?: number }>({
    name: "add_to_cart",
    description: `Add ${product.name} (the product on this page) to the cart.`,
    inputSchema: ADD_TO_CART_INPUT,
    async execute({ quantity: wanted = 1 }, { pointAt }) {
      setQuantity(wanted);
      pointAt("#add-to-cart", { action: "click" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const cart = addToCart(product, wanted);
      return `Added ${wanted} × ${product.name}. The cart has ${cartCount(cart)} item(s).`;
    },
  });

  return (
    <article className="product">
      <span className="emoji big" aria-hidden>
        {product.emoji}
      </span>
      <div>
        <h1>{product.name}</h1>
        <p>{product.blurb}</p>
        <p className="price">{formatPrice(product.price)}</p>
        <label>
          Quantity{" "}
          <input type="number" min={1} max={20} value={quantity} onChange={(event) => setQuantity(Math.max(1, Number(event.target.value) || 1))} />
        </label>{" "}
        <button type="button" id="add-to-cart" onClick={() => addToCart(product, quantity)}>
          Add to cart
        </button>
      </div>
    </article>
  );
}

export function ProductPage({ productId }: { productId: string }): ReactNode {
  const product = findProduct(productId);
  if (!product) return <h1>There is no such product.</h1>;
  return (
    <>
      <ProductDetails product={product} />
      <ReviewsWidget productId={product.id} />
    </>
  );
}
