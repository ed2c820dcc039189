import { dirname } from "node:path";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelFormat } from "../../models/model-formats.js";
import { ensureTestModel, tinyModel } from "../../models/test-models/index.js";
import type { ToolDescriptor } from "../../runtime/session/tool-descriptor.js";
import { observeToolCallConstraints } from "./constraint-observer.js";
import { loadXGrammar } from "./load-xgrammar.js";
import { ToolCallConstraint } from "./tool-call-constraint.js";
import { fromByteLevel } from "./vocabulary/byte-level-alphabet.js";
import { readVocabulary, type TokenizerJson, type Vocabulary } from "./vocabulary/tokenizer-vocabulary.js";
import { XGrammarTokenizer } from "./vocabulary/xgrammar-tokenizer.js";

/**
 * Jump-forward over the real Qwen tokenizer (the tiny test model's) and
 * xgrammar: a model may write a character in byte pieces (byte-level BPE has
 * a token for every byte), and the grammar may fix what follows. The driver
 * writes each call byte by byte where it may (the worst case), lets the
 * constraint write what it fixes ahead, and checks every token the
 * constraint allows and writes is one xgrammar accepts.
 */
const ENUM_TOOL: ToolDescriptor = {
  name: "search",
  description: "Searches.",
  inputSchema: { type: "object", properties: { city: { enum: ["ünïcode ✓ and more", "São Paulo"] } }, required: ["city"] },
};
const CALLS = {
  qwen3: '\n{"name": "search", "arguments": {"city": "ünïcode ✓ and more"}}\n</tool_call>',
  "qwen3.5": "\n<function=search>\n<parameter=city>\nünïcode ✓ and more\n</parameter>\n</function>\n</tool_call>",
};

describe("jump-forward on the real Qwen vocabulary, characters written in byte pieces", () => {
  let vocabulary: Vocabulary;
  let table: XGrammarTokenizer;
  let encode: (text: string) => number[];
  let byteToken: (byte: number) => number;
  const rejected: number[] = [];
  const detach = observeToolCallConstraints({ rejected: (id) => void rejected.push(id) });
  afterAll(detach);

  beforeAll(async () => {
    const tiny = await ensureTestModel(tinyModel());
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = `${dirname(tiny.folder)}/`;
    const tokenizer = (await AutoTokenizer.from_pretrained("tiny", { local_files_only: true })) as unknown as { _tokenizerJSON: TokenizerJson; encode(text: string, options: object): number[] };
    encode = (text) => Array.from(tokenizer.encode(text, { add_special_tokens: false }), Number);
    vocabulary = readVocabulary(tokenizer._tokenizerJSON, { vocabSize: 151936, stopIds: [151645] });
    table = await XGrammarTokenizer.create(await loadXGrammar(), vocabulary);
    // Every byte has its own token in a byte-level vocabulary (GPT-2's alphabet: one character a byte).
    const single = new Map<number, number>();
    vocabulary.encoded.forEach((text, id) => {
      if ([...text].length === 1 && !single.has(fromByteLevel(text)[0]!)) single.set(fromByteLevel(text)[0]!, id);
    });
    byteToken = (byte) => single.get(byte)!;
  }, 120_000);

  it.each(["qwen3", "qwen3.5"] as const)("%s: an enum member with ✓ written byte by byte; the rest written ahead is accepted, the call closes", async (format) => {
    const grammar = modelFormat(format).grammar([ENUM_TOOL]);
    const constraint = new ToolCallConstraint({
      grammar,
      texts: vocabulary.encoded,
      vocabulary: () => vocabulary,
      openerId: vocabulary.encoded.indexOf("<tool_call>"),
      toolChoice: "required",
      thinking: false,
      maxNewTokens: 400,
      createMatcher: async () => table.xgrammar.GrammarMatcher.createGrammarMatcher((await table.compile(grammar)).compiled, undefined, true),
      createPlanner: async () => (await table.compile(grammar)).planner,
      encode,
    });
    const target = new TextEncoder().encode(CALLS[format]);
    const written: number[] = [];
    let at = 0;
    const logits = new Float32Array(vocabulary.vocabSize);
    constraint.observe(vocabulary.encoded.indexOf("<tool_call>"));
    let jumped = 0;
    while (constraint.completedCalls === 0 && at < target.length) {
      const ahead = await constraint.prepare();
      jumped += ahead.length;
      for (const id of ahead) {
        const bytes = fromByteLevel(vocabulary.encoded[id]!);
        expect([...target.subarray(at, at + bytes.length)], "what the constraint wrote ahead is the call's text").toEqual([...bytes]);
        at += bytes.length;
        written.push(id);
      }
      if (constraint.completedCalls > 0 || at >= target.length) break;
      logits.fill(0);
      constraint.apply(logits);
      const next = byteToken(target[at]!);
      expect(logits[next], `byte ${target[at]} at ${at} is allowed`).not.toBe(-Infinity);
      constraint.observe(next);
      written.push(next);
      at += 1;
    }
    await constraint.prepare();
    expect(rejected).toEqual([]);
    expect(constraint.completedCalls).toBe(1);
    expect(jumped, "something was written ahead").toBeGreaterThan(0);
    expect(new TextDecoder().decode(Uint8Array.from(written.flatMap((id) => [...fromByteLevel(vocabulary.encoded[id]!)])))).toBe(CALLS[format]);
  });
});
