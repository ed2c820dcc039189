// A tiny hash router: #/, #/product/<id>, #/cart, #/orders. Browser only at
// call time, so the tools module can import it.

export type Route = { page: "home" } | { page: "product"; productId: string } | { page: "cart" } | { page: "orders" };

/** The page names `go_to` takes. */
export const PAGE_NAMES = ["home", "cart", "orders", "product/<id>"] as const;

/** Parses "home", "cart", "orders", "product/<id>" (or a hash like "#/cart"). */
export function parsePage(page: string): Route | undefined {
  const path = page.replace(/^#?\/?/, "").replace(/\/+$/, "");
  if (path === "" || path === "home") return { page: "home" };
  if (path === "cart" || path === "orders") return { page: path };
  const product = /^product\/([\w-]+)$/.exec(path);
  return product ? { page: "product", productId: product[1]! } : undefined;
}

export function pageName(route: Route): string {
  return route.page === "product" ? `product/${route.productId}` : route.page;
}

export function currentRoute(): Route {
  return parsePage(location.hash) ?? { page: "home" };
}

export function navigate(route: Route): void {
  location.hash = `#/${route.page === "home" ? "" : pageName(route)}`;
}

export function onRouteChange(listener: () => void): () => void {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
}
