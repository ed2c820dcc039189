import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { expect } from "vitest";
import { installHappyDomWebMCP, resetWebMCP } from "../../runtime/core/test-fixtures/happy-dom-webmcp.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A React root in happy-dom with WebMCP (the polyfill) on the page. */
export interface Mounted {
  container: HTMLElement;
  render(node: ReactNode): void;
  /** Unmounts, removes the container, clears storage and WebMCP. */
  cleanup(): void;
}

/** Mounts a fresh root on `document.body`; call `cleanup()` in `afterEach`. */
export function mount(): Mounted {
  installHappyDomWebMCP();
  const container = document.createElement("div");
  document.body.append(container);
  const root: Root = createRoot(container);
  return {
    container,
    render: (node) => act(() => root.render(node)),
    cleanup() {
      act(() => root.unmount());
      container.remove();
      sessionStorage.clear();
      localStorage.clear();
      resetWebMCP();
    },
  };
}

/** Lets timers and promises run (inside `act`) until `check` holds, for up to 2 s. */
export async function waitUntil(check: () => boolean, what = "the condition"): Promise<void> {
  for (let tries = 0; tries < 200 && !check(); tries++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
  expect(check(), what).toBe(true);
}

/** Lets timers and promises run for `ms` milliseconds, inside `act`. */
export async function tick(ms = 20): Promise<void> {
  await act(() => new Promise((resolve) => setTimeout(resolve, ms)));
}
