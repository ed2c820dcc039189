import type { JSONSchema } from "./json-schema.js";
import { isStandardSchema, type StandardSchemaLike } from "./standard-schema.js";
import { toInputJsonSchema, toOutputJsonSchema } from "./to-input-json-schema.js";

const WEB_TOOL = Symbol.for("webmcp-agents.web-tool");
const TOOL_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;
const CONFIG_KEYS = new Set(["name", "title", "description", "inputSchema", "outputSchema", "execute", "annotations"]);
const ANNOTATION_KEYS = new Set([
  "readOnlyHint",
  "consequentialHint",
  "untrustedContentHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
]);

/**
 * Hints about a tool's behaviour. WebMCP names three (`readOnlyHint`,
 * `consequentialHint`, `untrustedContentHint`); the MCP ones
 * (`destructiveHint`, `idempotentHint`, `openWorldHint`) are accepted too.
 * All default to not said.
 */
export interface WebToolAnnotations {
  /** It only reads: calling it changes nothing. */
  readOnlyHint?: boolean;
  /**
   * Its effect matters to the person and is hard to undo: buying, sending,
   * booking, deleting (WebMCP's name). The chat asks before it runs
   * (`confirmTools`, default `"consequential"`).
   */
  consequentialHint?: boolean;
  /**
   * Its output carries content the site does not vouch for (reviews,
   * messages, third-party data). The model reads it marked as untrusted, and
   * for the rest of the turn every call that is not `readOnlyHint` waits for
   * the person's confirmation.
   */
  untrustedContentHint?: boolean;
  /**
   * MCP's name for a tool that may destroy or overwrite something; read as
   * `consequentialHint` (and registered with WebMCP as `consequentialHint:
   * true` unless that is given).
   */
  destructiveHint?: boolean;
  /** MCP: calling it twice with the same input does no more than calling it once. */
  idempotentHint?: boolean;
  /** MCP: it reaches beyond this page (network, other sites). */
  openWorldHint?: boolean;
}

/** What a tool's `execute` gets besides its input. */
export interface WebToolContext {
  /**
   * Aborts when the caller stops the call or it times out. When another agent
   * (the browser's own) calls the tool through WebMCP, it never aborts.
   */
  signal: AbortSignal;
  /**
   * The id of this call, as the model gave it, when the caller named one
   * (the chat's calls do; another agent's call through WebMCP does not).
   * `waitForClick` and `pointAt` put it on their agent events, so the chat
   * marks this call and no other. Default: not set.
   */
  callId?: string;
  /**
   * Parks the call until the person clicks `target` (an element or a CSS
   * selector, resolved now) and shows them `prompt`. Only a real click counts.
   * Rejects with an `AbortError` when the call is stopped, and when no element
   * matches the selector. Time spent parked does not count toward the timeout.
   */
  waitForClick(target: Element | string, prompt: string): Promise<void>;
  /**
   * Shows the person what the call works on: the agent cursor moves to
   * `target` (an element or a CSS selector, resolved now) and, for `click`
   * and `type`, shows the click or the typed `text`. Default action `point`.
   * Throws a `WebAgentsError` (`target_not_found`) when nothing matches.
   */
  pointAt(target: Element | string, options?: { action?: "point" | "click" | "type"; text?: string }): void;
}

/** What `defineWebTool` takes. `Input` is inferred from a Standard Schema `inputSchema`. */
export interface WebToolConfig<Input = Record<string, unknown>> {
  /** 1 to 64 of `a-z A-Z 0-9 _ . -`, unique on the page: `"add_to_cart"`. */
  name: string;
  /** A human-readable name. Default: not set. */
  title?: string;
  /** What the tool does; the model decides from this alone. Non-empty. */
  description: string;
  /**
   * The input as a JSON Schema object (`type: "object"`), or a Standard
   * Schema that can emit JSON Schema (zod 4); the latter also validates each
   * call and hands `execute` its parsed value. Default `{ type: "object", properties: {} }`.
   */
  inputSchema?: JSONSchema | StandardSchemaLike<unknown, Input>;
  /**
   * The JSON Schema of the tool's `structuredContent`, when it returns one:
   * registered with WebMCP (Chrome 159+ takes it) and handed to the models
   * that read tool schemas. Default: not set.
   */
  outputSchema?: JSONSchema;
  /**
   * Runs the tool. Return a string, any JSON value, an MCP result
   * (`{ content: [...] }`) or nothing; throw to fail.
   */
  execute: (input: Input, context: WebToolContext) => unknown;
  /** Behaviour hints. Default: none. */
  annotations?: WebToolAnnotations;
}

/**
 * A tool from {@link defineWebTool}: frozen plain data, safe to import on a
 * server. Register it on a page with `registerWebTool`.
 */
export interface WebTool<Input = unknown> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** Always a JSON Schema object (a Standard Schema is converted). Deeply frozen. */
  readonly inputSchema: JSONSchema;
  /** The JSON Schema of its `structuredContent`, when given. Deeply frozen. */
  readonly outputSchema?: JSONSchema;
  readonly annotations?: Readonly<WebToolAnnotations>;
  /** The Standard Schema the tool was defined with, kept to validate calls. */
  readonly validate?: StandardSchemaLike<unknown, Input>;
  execute(input: Input, context: WebToolContext): unknown;
}

/**
 * Defines a WebMCP tool once, as plain frozen data: no DOM access at import or
 * definition, so catalog files can be shared with the server.
 *
 * Throws a `TypeError` that names the fix for an unknown option, a bad
 * `name`, an empty `description`, an `inputSchema` that is neither a JSON
 * Schema object nor a convertible Standard Schema, a missing `execute`, or
 * bad `annotations`.
 */
export function defineWebTool<Input = Record<string, unknown>>(config: WebToolConfig<Input>): WebTool<Input> {
  if (typeof config !== "object" || config === null) {
    throw new TypeError("defineWebTool: pass a config object: { name, description, inputSchema?, execute }.");
  }
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) {
      throw new TypeError(`defineWebTool: unknown option "${key}". Known options: ${[...CONFIG_KEYS].join(", ")}.`);
    }
  }
  const { name, title, description, inputSchema, outputSchema, execute, annotations } = config;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new TypeError(
      `defineWebTool: name must be 1 to 64 of a-z A-Z 0-9 _ . - (got ${JSON.stringify(name) ?? String(name)}). ` +
        `Use a name like "add_to_cart".`,
    );
  }
  const where = `defineWebTool("${name}")`;
  if (title !== undefined && typeof title !== "string") {
    throw new TypeError(`${where}: title must be a string when given.`);
  }
  if (typeof description !== "string" || description.trim() === "") {
    throw new TypeError(`${where}: description must be a non-empty string: say what the tool does and when to use it.`);
  }
  if (typeof execute !== "function") {
    throw new TypeError(`${where}: execute must be a function (input, context) => result.`);
  }
  const tool: Record<string, unknown> = { name };
  if (title !== undefined) tool.title = title;
  tool.description = description;
  tool.inputSchema = toInputJsonSchema(inputSchema, where);
  if (outputSchema !== undefined) tool.outputSchema = toOutputJsonSchema(outputSchema, where);
  if (annotations !== undefined) tool.annotations = Object.freeze(checkAnnotations(annotations, where));
  if (isStandardSchema(inputSchema)) tool.validate = inputSchema;
  tool.execute = execute;
  Object.defineProperty(tool, WEB_TOOL, { value: true });
  return Object.freeze(tool) as unknown as WebTool<Input>;
}

/**
 * True for a tool from {@link defineWebTool}, from any copy of this module
 * (checked by a `Symbol.for` marker, not `instanceof`).
 */
export function isWebTool(value: unknown): value is WebTool {
  if (typeof value !== "object" || value === null) return false;
  const tool = value as Record<string | symbol, unknown>;
  return tool[WEB_TOOL] === true && typeof tool.name === "string" && typeof tool.execute === "function";
}

function checkAnnotations(annotations: unknown, where: string): WebToolAnnotations {
  if (typeof annotations !== "object" || annotations === null || Array.isArray(annotations)) {
    throw new TypeError(`${where}: annotations must be an object such as { readOnlyHint: true }.`);
  }
  for (const [key, value] of Object.entries(annotations)) {
    if (!ANNOTATION_KEYS.has(key)) {
      throw new TypeError(`${where}: unknown annotation "${key}". Known: ${[...ANNOTATION_KEYS].join(", ")}.`);
    }
    if (value !== undefined && typeof value !== "boolean") {
      throw new TypeError(`${where}: annotations.${key} must be true or false.`);
    }
  }
  return { ...annotations };
}
