// The cart and the orders, persisted in localStorage. Nothing here touches
// the browser until a function is called, so the tools module (which the
// server imports through agents.ts) can import it.
import { findProduct, type Product } from "./catalog.js";

export interface CartLine {
  productId: string;
  quantity: number;
}

export interface Order {
  id: string;
  lines: CartLine[];
  /** Cents. */
  total: number;
  /** ISO time. */
  placedAt: string;
}

export type OrderStatus = "processing" | "shipped" | "delivered";

const CART_KEY = "field-store:cart";
const ORDERS_KEY = "field-store:orders";
const listeners = new Set<() => void>();
let cache: { cart: CartLine[]; orders: Order[] } | undefined;

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function state() {
  cache ??= { cart: read<CartLine[]>(CART_KEY, []), orders: read<Order[]>(ORDERS_KEY, []) };
  return cache;
}

function write(next: { cart: CartLine[]; orders: Order[] }) {
  cache = next;
  localStorage.setItem(CART_KEY, JSON.stringify(next.cart));
  localStorage.setItem(ORDERS_KEY, JSON.stringify(next.orders));
  for (const listener of [...listeners]) listener();
}

/** Another tab changed the cart or the orders. */
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key !== CART_KEY && event.key !== ORDERS_KEY) return;
    cache = undefined;
    for (const listener of [...listeners]) listener();
  });
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getCart = (): readonly CartLine[] => state().cart;
export const getOrders = (): readonly Order[] => state().orders;

export function cartCount(cart: readonly CartLine[] = getCart()): number {
  return cart.reduce((total, line) => total + line.quantity, 0);
}

export function cartTotal(lines: readonly CartLine[] = getCart()): number {
  return lines.reduce((total, line) => total + (findProduct(line.productId)?.price ?? 0) * line.quantity, 0);
}

export function addToCart(product: Product, quantity: number): readonly CartLine[] {
  const { cart, orders } = state();
  const existing = cart.find((line) => line.productId === product.id);
  const next = existing
    ? cart.map((line) => (line === existing ? { ...line, quantity: line.quantity + quantity } : line))
    : [...cart, { productId: product.id, quantity }];
  write({ cart: next, orders });
  return next;
}

export function removeFromCart(productId: string): void {
  const { cart, orders } = state();
  write({ cart: cart.filter((line) => line.productId !== productId), orders });
}

/** Turns the cart into an order and empties the cart. Throws when the cart is empty. */
export function placeOrder(now = new Date()): Order {
  const { cart, orders } = state();
  if (cart.length === 0) throw new Error("The cart is empty: add something first.");
  const order: Order = { id: `FS-${1001 + orders.length}`, lines: cart, total: cartTotal(cart), placedAt: now.toISOString() };
  write({ cart: [], orders: [order, ...orders] });
  return order;
}

/** Where an order is: processing for its first minute, shipped until its third day, then delivered. */
export function orderStatus(order: Order, now = new Date()): { status: OrderStatus; arrives: string } {
  const placed = new Date(order.placedAt);
  const arrives = new Date(placed.getTime() + 3 * 24 * 3600_000);
  const elapsed = now.getTime() - placed.getTime();
  const status: OrderStatus = elapsed < 60_000 ? "processing" : now < arrives ? "shipped" : "delivered";
  return { status, arrives: arrives.toDateString() };
}

/** A line as the tools and pages describe it. */
export function describeLine(line: CartLine) {
  const product = findProduct(line.productId);
  return { productId: line.productId, name: product?.name ?? line.productId, quantity: line.quantity, price: product?.price ?? 0 };
}
