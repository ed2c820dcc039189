import type { ReactNode } from "react";
import { formatPrice, PRODUCTS } from "../catalog.js";

export function HomePage(): ReactNode {
  return (
    <section>
      <h1>Gear for long days outside</h1>
      <ul className="grid">
        {PRODUCTS.map((product) => (
          <li key={product.id} className="card">
            <a href={`#/product/${product.id}`} data-product-link={product.id}>
              <span className="emoji" aria-hidden>
                {product.emoji}
              </span>
              <strong>{product.name}</strong>
              <span>{formatPrice(product.price)}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
