import type { ToolCallGrammar } from "../../../models/model-format.js";
import { callableTools } from "../grammar/build-call-grammar.js";
import { JsonWalker, type JsonContext } from "./json-walker.js";
import { XmlWalker, type XmlContext } from "./xml-walker.js";

/** Reads a call's bytes and says when one breaks a bound (bounds-restriction.ts asks it about candidate tokens). */
export interface CallWalker {
  /** Reads bytes `from`..`to`; false once they break a bound (the walker is then spent). */
  feed(bytes: Uint8Array, from?: number, to?: number): boolean;
  clone(): CallWalker;
  /** One walker per reading of an ambiguous text (itself when there is one). */
  split(): CallWalker[];
  /** Where the (first) reading stands. */
  context(): XmlContext;
}

/** A Hermes call as JSON: one reading per offered tool, each `{"name": <its name>, "arguments": <its schema>}`, until the name tells. */
class HermesWalker implements CallWalker {
  readonly #json: JsonWalker;
  constructor(json: JsonWalker) {
    this.#json = json;
  }
  feed(bytes: Uint8Array, from?: number, to?: number): boolean {
    return this.#json.feed(bytes, from, to);
  }
  clone(): CallWalker {
    return new HermesWalker(this.#json.clone());
  }
  split(): CallWalker[] {
    const readings = this.#json.split();
    return readings.length === 1 ? [this] : readings.map((json) => new HermesWalker(json));
  }
  context(): XmlContext {
    const json: JsonContext = this.#json.context();
    return { space: json.space, json };
  }
}

/** The walker for one call of `grammar`'s syntax and tools (the text after `callOpen`). */
export function callWalker(grammar: Pick<ToolCallGrammar, "syntax" | "tools" | "callClose">): CallWalker {
  const tools = callableTools(grammar);
  if (grammar.syntax === "qwen-xml") return XmlWalker.for(tools);
  // `arguments` is resolved in the tool's own schema by a `$ref` to its root.
  const readings = tools.map((tool) => ({ schema: { type: "object", properties: { name: { const: tool.name }, arguments: { $ref: "#" } }, additionalProperties: false }, root: { type: "object", ...tool.inputSchema } }));
  // A `</tool_call>` in a string would end the call for the parser (models/hermes-call-reader.ts): `<\/tool_call>` still can.
  return new HermesWalker(new JsonWalker({ readings, forbidden: new TextEncoder().encode(grammar.callClose) }));
}
