import { useSyncExternalStore } from "react";
import { currentRoute, onRouteChange, type Route } from "./router.js";
import { getCart, getOrders, subscribe } from "./store-state.js";

export const useCart = () => useSyncExternalStore(subscribe, getCart);
export const useOrders = () => useSyncExternalStore(subscribe, getOrders);

let route = currentRoute();
let routeKey = location.hash;
function getRoute(): Route {
  if (location.hash !== routeKey) {
    routeKey = location.hash;
    route = currentRoute();
  }
  return route;
}
export const useRoute = () => useSyncExternalStore(onRouteChange, getRoute);
