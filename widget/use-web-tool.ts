import { useEffect, useInsertionEffect, useMemo, useRef } from "react";
import { defineWebTool, isWebTool, type WebTool, type WebToolConfig, type WebToolContext } from "../runtime/core/define-web-tool.js";
import { registerWebToolInTurn } from "./register-web-tool-in-turn.js";

/**
 * Registers a page tool for as long as the calling component is mounted:
 * on mount with a signal, unregistered on unmount by aborting it.
 *
 * Takes a tool from `defineWebTool` or its config (`{ name, description,
 * inputSchema?, execute, annotations?, title? }`). It registers again only
 * when what the model sees changes (name, title, description, input schema,
 * annotations); a new `execute` (a closure over fresh props or state) is
 * picked up without re-registering: the registered tool calls the latest one.
 * Safe under StrictMode and hot reload: a remount waits for the registration
 * it replaces, so it never meets itself as a duplicate.
 *
 * A config's zod `inputSchema` is converted to JSON Schema whenever its
 * identity changes: define it outside the component to convert it once.
 *
 * A tool of the same name registered by something else is reported with
 * `console.error` (a `duplicate_tool` error); a bad config throws a
 * `TypeError` during render, naming the fix.
 *
 * @example
 * useWebTool({
 *   name: "add_to_cart",
 *   description: "Add the product on this page to the cart.",
 *   inputSchema: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } } },
 *   execute: ({ quantity }) => cart.add(product, Number(quantity)),
 * });
 */
export function useWebTool<Input = Record<string, unknown>>(tool: WebTool<Input> | WebToolConfig<Input>): void {
  const latest = useRef(tool);
  useInsertionEffect(() => {
    latest.current = tool;
  });

  // Checked and converted (a zod schema to JSON Schema) once per change of
  // what the model sees; an inline config object re-renders cheaply.
  const annotationsKey = JSON.stringify(tool.annotations ?? null);
  const defined = useMemo(
    () => (isWebTool(tool) ? (tool as WebTool<Input>) : defineWebTool<Input>(tool as WebToolConfig<Input>)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- execute is read through `latest`
    [tool.name, tool.title, tool.description, tool.inputSchema, annotationsKey],
  );
  const key = JSON.stringify([defined.name, defined.title, defined.description, defined.inputSchema, defined.annotations]);

  useEffect(() => {
    const controller = new AbortController();
    const registered = defineWebTool<Input>({
      name: defined.name,
      ...(defined.title !== undefined && { title: defined.title }),
      description: defined.description,
      inputSchema: defined.validate ?? defined.inputSchema,
      ...(defined.annotations && { annotations: { ...defined.annotations } }),
      execute: (input: Input, context: WebToolContext) => latest.current.execute(input, context),
    });
    void registerWebToolInTurn(registered as WebTool, controller.signal);
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `defined`'s visible fields
  }, [key]);
}
