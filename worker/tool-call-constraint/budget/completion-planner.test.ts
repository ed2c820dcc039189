import { beforeAll, describe, expect, it } from "vitest";
import { randomTools, seededRandom } from "../../../bench/constraint/random-json-schema.js";
import { modelFormat } from "../../../models/model-formats.js";
import { buildCallGrammar } from "../grammar/build-call-grammar.js";
import { CompletionPlanner } from "./completion-planner.js";
import { PlannerGrammar } from "./planner-grammar.js";
import { loadXGrammar, type XGrammar } from "../load-xgrammar.js";
import { callWalker } from "../bounds/call-walker.js";
import { parseEbnf } from "./parse-ebnf.js";

const planner = (ebnf: string) => new CompletionPlanner(PlannerGrammar.fromEbnf(ebnf));
const completes = (ebnf: string, prefix: string) => {
  const subject = planner(ebnf);
  subject.feed(prefix);
  return subject.completion();
};

describe("parseEbnf", () => {
  it("reads literals, classes with escapes and ranges, groups, quantifiers and drops lookaheads", () => {
    const grammar = parseEbnf('root ::= "a\\n\\"" [^\\0-\\u001f\\"] ("x" | "yz")* "b"{2,3} c? (=[,}])\nc ::= [0-9]+');
    expect(grammar.names[grammar.start]).toBe("root");
    expect(grammar.classes.some((c) => c.negated && c.ranges[0] === 0 && c.ranges[1] === 0x1f && c.ranges[2] === 0x22)).toBe(true);
  });

  it("refuses a rule used but never defined, and text that is not a rule, naming it", () => {
    expect(() => parseEbnf('root ::= "a" missing')).toThrow(/"missing" is used but never defined/);
    expect(() => parseEbnf('root ::= "a"\nnot a rule')).toThrow(SyntaxError);
    expect(() => parseEbnf('root ::= ("a"')).toThrow(/root.*unclosed group/);
  });
});

describe("CompletionPlanner (hand-checked shortest completions)", () => {
  const list = 'root ::= "[" (item ("," item)*)? "]"\nitem ::= "true" | "0" | "\\"" [a-z]* "\\""';

  it("finishes the open structures in the fewest characters", () => {
    expect(completes(list, "")).toBe("[]");
    expect(completes(list, "[")).toBe("]");
    expect(completes(list, "[tr")).toBe("ue]");
    expect(completes(list, '[0,"ab')).toBe('"]');
    expect(completes(list, "[0,")).toBe("0]");
    expect(completes(list, "[0]")).toBe("");
  });

  it("counts bounded repetitions and required parts", () => {
    expect(completes('root ::= "x"{3,5} "!"', "x")).toBe("xx!");
    expect(completes('root ::= "x"{3,5} "!"', "xxxx")).toBe("!");
    expect(completes('root ::= "<a>" [^<]{2,} "</a>"', "<a>")).toBe("aa</a>");
  });

  it("is dead once the grammar refuses, and says so for every later call", () => {
    const subject = planner(list);
    expect(subject.feed("[x")).toBe(false);
    expect(subject.dead).toBe(true);
    expect(subject.completion()).toBeUndefined();
  });

  it("reads UTF-8 bytes split across feeds, and waits for a half-read character", () => {
    const subject = planner('root ::= "\\"" [^"]* "\\""');
    const bytes = new TextEncoder().encode('"ü✓');
    expect(subject.feedBytes(bytes.subarray(0, 2))).toBe(true);
    expect(subject.completion()).toBeUndefined();
    expect(subject.feedBytes(bytes.subarray(2))).toBe(true);
    expect(subject.length).toBe(3);
    expect(subject.completion()).toBe('"');
    // Bytes that are not well-formed UTF-8 (an overlong form) end it, as they would be garbled text.
    expect(subject.fork().feedBytes(Uint8Array.of(0xe0, 0x80))).toBe(false);
  });

  it("forks: a fork reads on without changing the planner it came from", () => {
    const subject = planner(list);
    subject.feed("[0");
    const fork = subject.fork();
    fork.feed(',"abc');
    expect(fork.completion()).toBe('"]');
    expect(subject.completion()).toBe("]");
  });
});

describe("CompletionPlanner on the call grammars (xgrammar's matcher as the judge)", () => {
  let xgrammar: XGrammar;
  beforeAll(async () => {
    xgrammar = await loadXGrammar();
  });

  // A character-level vocabulary: every printable ASCII character, a few non-ASCII ones, and some multi-character pieces.
  const VOCABULARY = [...Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)), "\n", "ü", "✓", "\t", '": ', ", ", '{"', "</", "parameter", "function", ">\n", "true", "null"];

  // Tokens are drawn from xgrammar's mask and the bounds (bounds/ keeps lengths and counts, which the planner's reading writes out).
  it.each(["qwen3", "qwen3.5"] as const)("%s: from 300 random partial calls over random schemas, prefix + completion is a whole call", async (format) => {
    const encoder = new TextEncoder();
    const random = seededRandom(format === "qwen3" ? 11 : 12);
    const info = await xgrammar.TokenizerInfo.createTokenizerInfo(VOCABULARY, "raw", false, VOCABULARY.length, []);
    const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
    let checked = 0;
    for (let set = 0; set < 30; set++) {
      const callGrammar = modelFormat(format).grammar(randomTools(set * 7 + (format === "qwen3" ? 1 : 2), 2, { loose: set % 2 === 1 }));
      const { ebnf, plannerEbnf } = buildCallGrammar(callGrammar);
      const grammar = PlannerGrammar.fromEbnf(plannerEbnf);
      const compiled = await compiler.compileGrammar(ebnf, "root");
      const whole = await xgrammar.Grammar.fromEBNF(ebnf);
      for (let walk = 0; walk < 10; walk++) {
        const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
        const subject = new CompletionPlanner(grammar);
        const walker = callWalker(callGrammar);
        let prefix = "";
        const steps = Math.floor(random() * 80);
        for (let step = 0; step < steps && !matcher.isTerminated(); step++) {
          const mask = await matcher.getNextTokenBitmask();
          const allowed = VOCABULARY.map((_, id) => id).filter((id) => (mask[id >> 5]! >>> (id & 31)) & 1 && walker.clone().feed(encoder.encode(VOCABULARY[id])));
          if (!allowed.length) break;
          const id = allowed[Math.floor(random() * allowed.length)]!;
          expect(matcher.acceptToken(id)).toBe(true);
          walker.feed(encoder.encode(VOCABULARY[id]));
          prefix += VOCABULARY[id];
          expect(subject.feed(VOCABULARY[id]!), `planner refused ${JSON.stringify(prefix)}`).toBe(true);
        }
        const completion = subject.completion();
        expect(completion, JSON.stringify(prefix)).toBeDefined();
        expect(await xgrammar.Testings.isGrammarAcceptString(whole, prefix + completion), JSON.stringify(prefix + completion)).toBe(true);
        matcher.dispose();
        checked++;
      }
      whole.dispose();
      compiled.dispose();
    }
    expect(checked).toBe(300);
  }, 120_000);
});
