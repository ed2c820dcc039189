import type { onnx } from "onnx-proto";

/** Tensor element types the test models use, named as ONNX Runtime's JS API names them. */
export type ElementType = "float32" | "float16" | "int64" | "int32" | "int8" | "uint8" | "bool";

/** `TensorProto.DataType` codes from onnx.proto. */
export const ELEMENT_TYPE_CODES: Readonly<Record<ElementType, number>> = {
  float32: 1,
  uint8: 2,
  int8: 3,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
};

/** Bytes per element of each type. */
export const ELEMENT_BYTES: Readonly<Record<ElementType, number>> = {
  float32: 4,
  uint8: 1,
  int8: 1,
  int32: 4,
  int64: 8,
  bool: 1,
  float16: 2,
};

/** A tensor dimension: a fixed size, or a named (symbolic) one such as `"batch_size"`. */
export type Dimension = number | string;

/**
 * A node attribute. A whole number is an INT and any other number a FLOAT;
 * wrap a whole-valued float as `{ float: 1 }`. A number array is INTS;
 * `{ graph }` a GRAPH (a loop body such as `Scan`'s).
 */
export type AttributeValue = number | string | readonly number[] | { float: number } | { floats: readonly number[] } | { graph: onnx.IGraphProto };

/**
 * A weight the graph needs, declared without its data: the writer decides
 * where the bytes go (inside the `.onnx` file or in its external data file)
 * and only then calls `fill`, one tensor at a time, so a 2.4 GB model never
 * sits in memory whole.
 */
export interface WeightDeclaration {
  name: string;
  type: ElementType;
  dims: readonly number[];
  /** `product(dims) * ELEMENT_BYTES[type]`. */
  byteLength: number;
  /** Writes the tensor's little-endian bytes into `target` (exactly `byteLength` long, zeroed). */
  fill: (target: Uint8Array) => void;
}

/** A finished graph: ONNX protobuf objects for the structure, declarations for the weights. */
export interface OnnxGraph {
  name: string;
  nodes: onnx.INodeProto[];
  inputs: onnx.IValueInfoProto[];
  outputs: onnx.IValueInfoProto[];
  weights: WeightDeclaration[];
  /** Operator sets the nodes use: `""` (the default ONNX domain) and any others such as `com.microsoft`. */
  opsetImports: { domain: string; version: number }[];
}

/** Options for one node. */
export interface NodeOptions {
  /** The output tensor's name (default: a generated unique name). Graph outputs need their exact name. */
  output?: string;
  /** Operator domain (default `""`, standard ONNX); register others with `useDomain`. */
  domain?: string;
}

function toAttribute(name: string, value: AttributeValue): onnx.IAttributeProto {
  if (typeof value === "string") return { name, type: 3, s: new TextEncoder().encode(value) };
  if (typeof value === "number") {
    return Number.isInteger(value) ? { name, type: 2, i: value } : { name, type: 1, f: value };
  }
  if ("float" in value) return { name, type: 1, f: value.float };
  if ("floats" in value) return { name, type: 6, floats: [...value.floats] };
  // A loop body (`Scan`'s `body`): its nodes may read the outer graph's tensors by name.
  if ("graph" in value) return { name, type: 5, g: value.graph };
  return { name, type: 7, ints: [...(value as readonly number[])] };
}

function valueInfo(name: string, type: ElementType, dims: readonly Dimension[]): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: ELEMENT_TYPE_CODES[type],
        shape: { dim: dims.map((dim) => (typeof dim === "number" ? { dimValue: dim } : { dimParam: dim })) },
      },
    },
  };
}

/** Little-endian bytes of small constant values. */
function constantBytes(type: ElementType, values: readonly (number | bigint)[]): Uint8Array {
  switch (type) {
    case "float32":
      return new Uint8Array(Float32Array.from(values, Number).buffer);
    case "int64":
      return new Uint8Array(BigInt64Array.from(values, (value) => BigInt(value)).buffer);
    case "int32":
      return new Uint8Array(Int32Array.from(values, Number).buffer);
    case "int8":
      return new Uint8Array(Int8Array.from(values, Number).buffer);
    case "uint8":
    case "bool":
      return Uint8Array.from(values, Number);
    case "float16":
      throw new Error("float16 constants are not supported; declare a weight with a fill function");
  }
}

/**
 * Builds an ONNX graph node by node, naming intermediate tensors itself.
 * Pure: it holds protobuf-shaped objects and weight declarations; nothing is
 * encoded or written until `writeOnnxModel`.
 *
 * @example
 * const graph = new OnnxGraphBuilder("double");
 * const x = graph.input("x", "float32", ["n"]);
 * graph.op("Mul", [x, graph.constant("float32", [2])], {}, { output: "y" });
 * graph.output("y", "float32", ["n"]);
 */
export class OnnxGraphBuilder {
  private readonly nodes: onnx.INodeProto[] = [];
  private readonly inputs: onnx.IValueInfoProto[] = [];
  private readonly outputs: onnx.IValueInfoProto[] = [];
  private readonly weights: WeightDeclaration[] = [];
  private readonly names = new Set<string>();
  private readonly constants = new Map<string, string>();
  private readonly domains = new Map<string, number>();
  private counter = 0;

  /**
   * @param name The graph's name.
   * @param opset The default domain's opset version (default 17, the one ONNX Runtime Web and Node both run).
   */
  constructor(
    private readonly name: string,
    opset = 17,
  ) {
    this.domains.set("", opset);
  }

  /** Registers an operator domain, e.g. `useDomain("com.microsoft", 1)` for `MatMulNBits`. */
  useDomain(domain: string, version: number): void {
    this.domains.set(domain, version);
  }

  /** Declares a graph input and returns its name. */
  input(name: string, type: ElementType, dims: readonly Dimension[]): string {
    this.claim(name);
    this.inputs.push(valueInfo(name, type, dims));
    return name;
  }

  /** Declares the tensor `name` (produced by a node with `{ output: name }`) a graph output. */
  output(name: string, type: ElementType, dims: readonly Dimension[]): void {
    if (!this.names.has(name)) throw new Error(`graph output "${name}" is not produced by any node`);
    this.outputs.push(valueInfo(name, type, dims));
  }

  /** Declares a weight whose bytes `fill` writes later; returns its name. */
  weight(name: string, type: ElementType, dims: readonly number[], fill: (target: Uint8Array) => void): string {
    this.claim(name);
    const byteLength = dims.reduce((product, dim) => product * dim, 1) * ELEMENT_BYTES[type];
    this.weights.push({ name, type, dims: [...dims], byteLength, fill });
    return name;
  }

  /**
   * A small constant tensor (shapes, axes, scalars), deduplicated by value.
   * @param dims Default: a 1-D tensor of `values.length`; pass `[]` for a scalar.
   */
  constant(type: ElementType, values: readonly (number | bigint)[], dims: readonly number[] = [values.length]): string {
    const key = `${type}|${dims.join("x")}|${values.join(",")}`;
    const existing = this.constants.get(key);
    if (existing) return existing;
    const bytes = constantBytes(type, values);
    const name = this.weight(this.fresh("const"), type, dims, (target) => target.set(bytes));
    this.constants.set(key, name);
    return name;
  }

  /** Adds a node with one output; returns the output's name. `""` marks an omitted optional input. */
  op(opType: string, inputs: readonly string[], attributes: Record<string, AttributeValue> = {}, options: NodeOptions = {}): string {
    const output = options.output ?? this.fresh(opType);
    this.addNode(opType, inputs, [output], attributes, options.domain);
    return output;
  }

  /** Adds a node with several outputs (e.g. `DynamicQuantizeLinear`); returns their names. */
  ops(
    opType: string,
    inputs: readonly string[],
    outputCount: number,
    attributes: Record<string, AttributeValue> = {},
    options: Omit<NodeOptions, "output"> = {},
  ): string[] {
    const outputs = Array.from({ length: outputCount }, () => this.fresh(opType));
    this.addNode(opType, inputs, outputs, attributes, options.domain);
    return outputs;
  }

  /** The graph so far. */
  build(): OnnxGraph {
    return {
      name: this.name,
      nodes: [...this.nodes],
      inputs: [...this.inputs],
      outputs: [...this.outputs],
      weights: [...this.weights],
      opsetImports: [...this.domains].map(([domain, version]) => ({ domain, version })),
    };
  }

  private addNode(
    opType: string,
    inputs: readonly string[],
    outputs: readonly string[],
    attributes: Record<string, AttributeValue>,
    domain = "",
  ): void {
    if (!this.domains.has(domain)) throw new Error(`domain "${domain}" is not registered (useDomain)`);
    for (const input of inputs) {
      if (input !== "" && !this.names.has(input)) throw new Error(`${opType}: unknown input "${input}"`);
    }
    for (const output of outputs) this.claim(output);
    this.nodes.push({
      name: `${opType}_${this.nodes.length}`,
      opType,
      domain,
      input: [...inputs],
      output: [...outputs],
      attribute: Object.entries(attributes).map(([name, value]) => toAttribute(name, value)),
    });
  }

  private claim(name: string): void {
    if (this.names.has(name)) throw new Error(`tensor name "${name}" is used twice`);
    this.names.add(name);
  }

  private fresh(prefix: string): string {
    return `${prefix}_${this.counter++}`;
  }
}
