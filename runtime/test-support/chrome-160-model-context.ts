/**
 * A stand-in for `document.modelContext` as Chrome 160 ships it (Chrome's
 * "WebMCP API updates", 26 Nov 2026; Debian's Chromium here is 156), for
 * tests that keep the runtime reading it right:
 *
 * - `getTools()` returns `Tool` interface objects, not dictionaries: the
 *   attributes are getters on `Tool.prototype`, so `JSON.stringify(tool)` is
 *   `"{}"`, `{ ...tool }` copies nothing and `structuredClone(tool)` throws
 *   (a platform object that is not serializable).
 * - An empty `inputSchema`, `outputSchema` or `annotations` is `null`;
 *   `window` is renamed `source`; `annotations` given are WebMCP's four
 *   booleans with their defaults (`readOnlyHint`, `untrustedContentHint`,
 *   `consequentialHint`, `debugging`), nothing else.
 * - `executeTool(tool, inputObject)` finds the tool by the internal id of
 *   the `Tool` object `getTools()` returned: anything else (a copy, a plain
 *   dictionary) is a `TypeError`, and a tool unregistered since is refused.
 *   It resolves a JSON string; a tool that throws rejects with a bare
 *   `UnknownError`, as Chromium's does.
 * - `registerTool` takes `outputSchema` (Chrome 159), refuses a duplicate
 *   name (`InvalidStateError`) and rejects with the signal's reason when it
 *   is already aborted; `toolchange` fires in a task after each change.
 *
 * Self-contained (no imports, nothing from outside the function), so a
 * browser test can inject it before the page loads:
 * `page.addInitScript({ content: `(${installChrome160ModelContext})()` })`.
 * Returns the context it put on `document`.
 */
export function installChrome160ModelContext(): EventTarget {
  interface Registration {
    id: number;
    name: string;
    title: string;
    description: string;
    inputSchema: string | null;
    outputSchema: string | null;
    annotations: Record<string, boolean> | null;
    execute: (input: object, options: { signal: AbortSignal }) => unknown;
  }
  const registrations = new Map<string, Registration>();
  const internals = new WeakMap<object, Registration>();
  const issued = new WeakMap<object, number>();
  const ILLEGAL = Symbol("illegal constructor guard");
  let nextId = 1;

  const parseCopy = (json: string | null): object | null => (json === null ? null : (JSON.parse(json) as object));
  const read = (tool: object, key: keyof Registration) => {
    const registration = internals.get(tool);
    if (!registration) throw new TypeError("Illegal invocation");
    return registration[key];
  };

  class Tool {
    constructor(guard: symbol) {
      if (guard !== ILLEGAL) throw new TypeError("Illegal constructor");
    }
    get name(): string {
      return read(this, "name") as string;
    }
    get title(): string {
      return read(this, "title") as string;
    }
    get description(): string {
      return read(this, "description") as string;
    }
    get inputSchema(): object | null {
      return parseCopy(read(this, "inputSchema") as string | null);
    }
    get outputSchema(): object | null {
      return parseCopy(read(this, "outputSchema") as string | null);
    }
    get annotations(): Record<string, boolean> | null {
      const annotations = read(this, "annotations") as Record<string, boolean> | null;
      return annotations === null ? null : { ...annotations };
    }
    get origin(): string {
      return location.origin;
    }
    get source(): Window {
      return window;
    }
  }

  /** A Tool object, wrapped so that structuredClone refuses it as it refuses a platform object. */
  const toolObject = (registration: Registration): object => {
    const tool = new Tool(ILLEGAL);
    internals.set(tool, registration);
    // Getters run on the Tool itself, not the wrapper.
    const wrapped = new Proxy(tool, { get: (target, key) => Reflect.get(target, key, target) });
    issued.set(wrapped, registration.id);
    return wrapped;
  };

  const context = new EventTarget();
  const changed = () => setTimeout(() => context.dispatchEvent(new Event("toolchange")), 0);
  const schemaJson = (value: unknown, what: string): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== "object") throw new TypeError(`Failed to execute 'registerTool' on 'ModelContext': ${what} must be an object.`);
    return JSON.stringify(value);
  };

  Object.assign(context, {
    async registerTool(tool: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<void> {
      const { signal } = options;
      if (signal?.aborted) throw signal.reason;
      const name = String(tool.name ?? "");
      if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name)) throw new DOMException(`Invalid tool name "${name}".`, "InvalidStateError");
      if (registrations.has(name)) throw new DOMException(`A tool named "${name}" is already registered.`, "InvalidStateError");
      if (typeof tool.execute !== "function") throw new TypeError("Failed to execute 'registerTool' on 'ModelContext': execute is not a function.");
      const given = tool.annotations as Record<string, unknown> | undefined | null;
      const registration: Registration = {
        id: nextId++,
        name,
        title: typeof tool.title === "string" ? tool.title : "",
        description: String(tool.description ?? ""),
        inputSchema: schemaJson(tool.inputSchema, "inputSchema"),
        outputSchema: schemaJson(tool.outputSchema, "outputSchema"),
        annotations:
          given === undefined || given === null
            ? null
            : {
                readOnlyHint: given.readOnlyHint === true,
                untrustedContentHint: given.untrustedContentHint === true,
                consequentialHint: given.consequentialHint === true,
                debugging: given.debugging === true,
              },
        execute: tool.execute as Registration["execute"],
      };
      registrations.set(name, registration);
      signal?.addEventListener(
        "abort",
        () => {
          if (registrations.get(name) !== registration) return;
          registrations.delete(name);
          changed();
        },
        { once: true },
      );
      changed();
    },
    async getTools(): Promise<object[]> {
      return [...registrations.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(toolObject);
    },
    async executeTool(tool: unknown, input: unknown, options: { signal?: AbortSignal } = {}): Promise<string> {
      const id = typeof tool === "object" && tool !== null ? issued.get(tool) : undefined;
      if (id === undefined) throw new TypeError("Failed to execute 'executeTool' on 'ModelContext': parameter 1 is not of type 'Tool'.");
      if (typeof input !== "object" || input === null) throw new TypeError("Failed to execute 'executeTool' on 'ModelContext': parameter 2 is not of type 'object'.");
      const registration = [...registrations.values()].find((candidate) => candidate.id === id);
      if (!registration) throw new DOMException("The tool is no longer registered.", "InvalidStateError");
      try {
        const result = await registration.execute(input, { signal: options.signal ?? new AbortController().signal });
        return JSON.stringify(result ?? null);
      } catch {
        throw new DOMException("", "UnknownError");
      }
    },
  });
  Object.defineProperty(document, "modelContext", { value: context, configurable: true });
  return context;
}
