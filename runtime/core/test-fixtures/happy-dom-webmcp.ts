import { cleanupWebMCPPolyfill } from "@mcp-b/webmcp-polyfill";

/**
 * Makes `@mcp-b/webmcp-polyfill` work under happy-dom. happy-dom's `document`
 * is not an instance of the global `Document` (each window gets its own
 * subclasses), while the polyfill installs its getter on
 * `Document.prototype` and checks `this instanceof Document`. Pointing the
 * global at the `Document` class in `document`'s own chain fixes both.
 * Call it before anything reads `document.modelContext`.
 */
export function installHappyDomWebMCP(): void {
  for (let proto = Object.getPrototypeOf(document); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === "Document") {
      (globalThis as { Document: unknown }).Document = proto.constructor;
      return;
    }
  }
  throw new Error("installHappyDomWebMCP: no Document class in document's prototype chain.");
}

/** Removes the polyfill and every tool on it; the next `getModelContext()` installs a fresh one. */
export function resetWebMCP(): void {
  cleanupWebMCPPolyfill();
}

/**
 * Dispatches a click that reports `isTrusted: true`, as a person's click
 * does. happy-dom never produces one (its `element.click()` is untrusted, as
 * in browsers), and unlike a browser it lets a test define the property.
 */
export function personClick(element: Element): void {
  const event = new MouseEvent("click", { bubbles: true, cancelable: true, composed: true });
  Object.defineProperty(event, "isTrusted", { value: true });
  element.dispatchEvent(event);
}

/** A stand-in for Chromium's native `document.modelContext`, which happy-dom lacks. */
export interface FakeNativeModelContext extends EventTarget {
  __entries: unknown[];
  registerTool(tool: unknown, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): Promise<unknown[]>;
  executeTool(tool: object, input: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/**
 * Puts a fake native model context on `document` (as Chromium 156 with
 * WebMCP behaves: `executeTool(tool, inputObject)` resolves a JSON string).
 * Returns a function that removes it.
 */
export function installFakeNativeModelContext(
  entries: unknown[],
  executeTool: FakeNativeModelContext["executeTool"] = async () => "null",
): { context: FakeNativeModelContext; restore: () => void } {
  const context = Object.assign(new EventTarget(), {
    __entries: entries,
    registerTool: async () => {},
    getTools: async () => context.__entries,
    executeTool,
  }) as FakeNativeModelContext;
  Object.defineProperty(document, "modelContext", { value: context, configurable: true });
  return { context, restore: () => Reflect.deleteProperty(document, "modelContext") };
}
