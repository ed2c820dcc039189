// The Field Store's products: plain data, shared by the pages and the tools.

export interface Product {
  id: string;
  name: string;
  /** Price in cents. */
  price: number;
  blurb: string;
  emoji: string;
}

export const PRODUCTS: readonly Product[] = [
  { id: "trail-socks", name: "Trail socks", price: 1800, blurb: "Merino wool, cushioned heel, made for long days on rough ground.", emoji: "🧦" },
  { id: "canvas-cap", name: "Canvas cap", price: 2400, blurb: "Waxed canvas with a short brim that packs flat.", emoji: "🧢" },
  { id: "field-flask", name: "Field flask", price: 3200, blurb: "Insulated steel, 750 ml: hot for 12 hours, cold for 24.", emoji: "🍶" },
  { id: "rain-shell", name: "Rain shell", price: 12900, blurb: "A light, fully taped shell for showers that turn into storms.", emoji: "🧥" },
];

export function findProduct(id: string): Product | undefined {
  return PRODUCTS.find((product) => product.id === id);
}

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
