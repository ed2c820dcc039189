import { beforeAll, describe, expect, it } from "vitest";
import { loadXGrammar, type XGrammar } from "./load-xgrammar.js";
import { PlannerGrammar } from "./budget/planner-grammar.js";
import { observeToolCallConstraints, type ToolCallConstraintObserver } from "./constraint-observer.js";
import { ToolCallConstraint, type ToolChoice } from "./tool-call-constraint.js";
import { toByteLevel } from "./vocabulary/byte-level-alphabet.js";

const ONE_LETTER = 'root ::= "\\n" ("a" | "b") "\\n</tool_call>"';

// The state machine over a small real vocabulary (xgrammar's own matcher, a raw vocabulary of our own).
const TEXTS = ["<", "tool", "_call", ">", "<tool_call>", "</tool_call>", "\n", "a", "b", "<tool_call>x", "_call>", "</think>", "\n\n", "", "hi"];
const id = (text: string) => TEXTS.indexOf(text);
const EOS = 13;
/** The toy vocabulary as a tokenizer writes it (byte-level characters), which is how the constraint reads tokens. */
const VOCABULARY = { vocabSize: TEXTS.length, encoded: TEXTS.map((text) => (text ? toByteLevel(text) : "")), stopIds: [EOS], buildMs: 0 };

describe("ToolCallConstraint (a toy vocabulary, xgrammar's real matcher)", () => {
  let xgrammar: XGrammar;
  let createMatcher: () => Promise<Awaited<ReturnType<XGrammar["GrammarMatcher"]["createGrammarMatcher"]>>>;
  let compile: (ebnf: string) => Promise<Awaited<ReturnType<XGrammar["GrammarCompiler"]["prototype"]["compileGrammar"]>>>;

  beforeAll(async () => {
    xgrammar = await loadXGrammar();
    const info = await xgrammar.TokenizerInfo.createTokenizerInfo(TEXTS, "raw", false, TEXTS.length, [EOS]);
    const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
    const compiled = await compiler.compileGrammar(ONE_LETTER, "root");
    createMatcher = () => xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    compile = (ebnf) => compiler.compileGrammar(ebnf, "root");
  });

  /** With `ebnf`, the call runs under that grammar with the completion planner; without, the one-letter grammar, masked only. */
  const constraint = (toolChoice: ToolChoice, thinking = false, maxNewTokens = 100, ebnf?: string, countRepairs = false) =>
    new ToolCallConstraint({
      countRepairs,
      grammar: { syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [] },
      texts: VOCABULARY.encoded,
      vocabulary: () => VOCABULARY,
      openerId: id("<tool_call>"),
      toolChoice,
      thinking,
      maxNewTokens,
      createMatcher: ebnf ? async () => xgrammar.GrammarMatcher.createGrammarMatcher(await compile(ebnf), undefined, true) : createMatcher,
      ...(ebnf && { createPlanner: async () => PlannerGrammar.fromEbnf(ebnf) }),
    });

  /** The texts `apply` leaves allowed after the tokens `written` were sampled. */
  const allowedAfter = async (subject: ToolCallConstraint, written: string[]) => {
    for (const text of written) subject.observe(id(text));
    await subject.prepare();
    const logits = new Float32Array(TEXTS.length);
    subject.apply(logits);
    return TEXTS.filter((_, index) => logits[index] !== -Infinity);
  };
  const masked = (allowed: string[]) => TEXTS.filter((text) => !allowed.includes(text));

  it("none: the opener token, and a token that completes a spelled opener, are masked; other pieces are not", async () => {
    const subject = constraint("none");
    // The first token: only the opener's own token is told apart (the rest is scanned after it).
    expect(masked(await allowedAfter(subject, []))).toEqual(["<tool_call>"]);
    expect(masked(await allowedAfter(subject, ["hi"]))).toEqual(["<tool_call>", "<tool_call>x"]);
    expect(masked(await allowedAfter(subject, ["<", "tool"]))).toEqual(["<tool_call>", "<tool_call>x", "_call>"]);
    expect(masked(await allowedAfter(subject, ["_call"]))).toEqual([">", "<tool_call>", "<tool_call>x"]);
  });

  it("auto: free text; a token running past the opener is refused; inside the call only the grammar; after the closer free again", async () => {
    const subject = constraint("auto");
    expect(masked(await allowedAfter(subject, ["hi"]))).toEqual(["<tool_call>x"]);
    expect(await allowedAfter(subject, ["<tool_call>"])).toEqual(["\n"]);
    expect(await allowedAfter(subject, ["\n"])).toEqual(["a", "b"]);
    expect(await allowedAfter(subject, ["b", "\n"])).toEqual(["<", "</tool_call>"]);
    expect(subject.inCall).toBe(true);
    expect(masked(await allowedAfter(subject, ["</tool_call>"]))).toEqual(["<tool_call>x"]);
    expect(subject.inCall).toBe(false);
    expect(subject.completedCalls).toBe(1);
  });

  it("end(): a closer sampled last is read (the call is reported closed); a call left open lets its matcher go unreported", async () => {
    const closed: unknown[] = [];
    const detach = observeToolCallConstraints({ callClosed: (call) => closed.push(call) });
    try {
      const last = constraint("auto");
      await allowedAfter(last, ["<tool_call>", "\n", "a", "\n"]);
      // The generation's last token: sampled, never followed by another step.
      last.observe(id("</tool_call>"));
      last.end();
      expect([last.inCall, last.completedCalls, closed.length]).toEqual([false, 1, 1]);
      const cut = constraint("auto");
      await allowedAfter(cut, ["<tool_call>", "\n"]);
      cut.observe(id("a"));
      cut.end();
      expect([cut.inCall, cut.completedCalls, closed.length]).toEqual([false, 0, 1]);
    } finally {
      detach();
    }
  });

  it("repairedCalls: a call counts once where the mask refused the model's likeliest token, never where the model wrote it right", async () => {
    /** Steps `written` one at a time, the logits favouring `likeliest` at each; what the constraint allowed is sampled. */
    const run = async (likeliest: string[], countRepairs = true) => {
      const subject = constraint("auto", false, 100, undefined, countRepairs);
      const logits = new Float32Array(TEXTS.length);
      for (const favourite of likeliest) {
        await subject.prepare();
        logits.fill(0);
        logits[id(favourite)] = 5;
        subject.apply(logits);
        // The likeliest token the mask left (the first allowed where it refused the favourite).
        const sampled = logits[id(favourite)] !== -Infinity ? id(favourite) : logits.findIndex((value) => value !== -Infinity);
        subject.observe(sampled);
      }
      await subject.prepare();
      return subject;
    };
    const right = await run(["<tool_call>", "\n", "a", "\n", "</tool_call>"]);
    expect([right.completedCalls, right.repairedCalls]).toEqual([1, 0]);
    // The model wanted "hi" where the call needs a letter, then "a" again where it needs the newline: one call, repaired.
    const wrong = await run(["<tool_call>", "\n", "hi", "a", "</tool_call>", "</tool_call>"]);
    expect([wrong.completedCalls, wrong.repairedCalls]).toEqual([1, 1]);
    // Not asked, not counted (the check costs a pass over the logits a step).
    expect((await run(["<tool_call>", "\n", "hi", "a", "</tool_call>"], false)).repairedCalls).toBe(0);
  });

  it("auto: a spelled opener opens the call too", async () => {
    const subject = constraint("auto");
    await allowedAfter(subject, ["<", "tool", "_call"]);
    expect(await allowedAfter(subject, [">"])).toEqual(["\n"]);
  });

  it("required: only the opener may start the reply (no text, no end of turn), and after the first token its pieces too", async () => {
    const subject = constraint("required");
    expect(await allowedAfter(subject, [])).toEqual(["<tool_call>"]);
    expect(await allowedAfter(subject, ["<"])).toEqual(["tool"]);
  });

  it("required with thinking: free until </think>, then at most the template's blank line, then the opener", async () => {
    const subject = constraint("required", true);
    expect(masked(await allowedAfter(subject, ["hi"]))).toEqual(["<tool_call>x"]);
    expect(await allowedAfter(subject, ["</think>"])).toEqual(["<", "<tool_call>", "\n", "\n\n"]);
    expect(await allowedAfter(subject, ["\n\n"])).toEqual(["<", "<tool_call>"]);
  });

  const LETTERS = 'root ::= "\\n" ("a" | "b")+ "\\n</tool_call>"';

  it("budget-aware closing in the band: only tokens after which the call still fits; with room, all the grammar allows", async () => {
    const roomy = constraint("auto", false, 100, LETTERS);
    await allowedAfter(roomy, ["<tool_call>", "\n", "a"]);
    expect(await allowedAfter(roomy, ["a"])).toEqual(["\n", "a", "b"]);
    // 6 tokens in all. The shortest completion after "\n" is "a" "\n" "</tool_call>": 3 tokens, 4 left.
    const subject = constraint("auto", false, 6, LETTERS);
    expect(await allowedAfter(subject, ["<tool_call>", "\n"])).toEqual(["a", "b"]);
    // 3 left, 2 needed: one more letter still fits.
    expect(await allowedAfter(subject, ["b"])).toEqual(["\n", "a", "b"]);
    // 2 left, 2 needed: a letter would not ("<" cannot be followed by what the closer needs in this vocabulary either).
    expect(await allowedAfter(subject, ["a"])).toEqual(["\n"]);
    expect(await allowedAfter(subject, ["\n"])).toEqual(["</tool_call>"]);
    const closed: Parameters<NonNullable<ToolCallConstraintObserver["callClosed"]>>[0][] = [];
    let lost = 0;
    const detach = observeToolCallConstraints({ callClosed: (call) => closed.push(call), plannerLost: () => lost++ });
    await allowedAfter(subject, ["</tool_call>"]);
    detach();
    expect(subject.completedCalls).toBe(1);
    expect(closed).toMatchObject([{ planned: false }]);
    expect(lost).toBe(0);
  });

  it("the first token is told apart by the opener's own token alone (nothing is scanned before it): none masks it, required allows it alone", async () => {
    const early = (toolChoice: ToolChoice) =>
      new ToolCallConstraint({ grammar: { syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [] }, texts: VOCABULARY.encoded, vocabulary: () => VOCABULARY, openerId: id("<tool_call>"), toolChoice, thinking: false, maxNewTokens: 100, createMatcher });
    const first = async (subject: ToolCallConstraint) => {
      await subject.prepare();
      const logits = new Float32Array(TEXTS.length);
      subject.apply(logits);
      return TEXTS.filter((_, index) => logits[index] !== -Infinity);
    };
    expect(masked(await first(early("none")))).toEqual(["<tool_call>"]);
    expect(await first(early("required"))).toEqual(["<tool_call>"]);
    expect(masked(await first(early("auto")))).toEqual([]);
  });

  it("budget-aware closing: when no token fits, the shortest completion is written token by token", async () => {
    // 4 tokens in all: after the opener and "\n", 2 are left and the shortest completion needs 3. No token keeps the call
    // within budget, so the constraint writes the shortest completion itself (here cut at the limit: the call opened too late).
    const subject = constraint("auto", false, 4, LETTERS);
    expect(await allowedAfter(subject, ["<tool_call>", "\n"])).toEqual(["a"]);
    expect(await allowedAfter(subject, ["a"])).toEqual(["\n"]);
  });

  it("budget-aware closing starts as early as the grammar's widest choice: no token opens a part the tokens left cannot hold", async () => {
    // "b" commits to 40 more letters (a token each): 43 tokens to close after it, where the cheapest close takes 2.
    const WIDE = `root ::= "\\n" "a"? ("b" "${"a".repeat(40)}")? "\\n</tool_call>"`;
    const grammar = PlannerGrammar.fromEbnf(WIDE);
    expect(grammar.widestChoice).toBe(41);
    // 40 left after "\n" (the one to sample included): 37 spare before "b", too few for its 41.
    expect(await allowedAfter(constraint("required", false, 42, WIDE), ["<tool_call>", "\n"])).toEqual(["\n", "a"]);
    // With room for it, "b" is allowed.
    expect(await allowedAfter(constraint("required", false, 60, WIDE), ["<tool_call>", "\n"])).toEqual(["\n", "a", "b"]);
  });

  it("jump-forward writes the tokenizer's spelling of a fixed stretch only while the call still closes in the tokens left", async () => {
    // After the letter, "<tool_call>" is fixed: the plan spells it as one token; this tokenizer writes it in four.
    const FIXED_CLOSE = 'root ::= "\\n" ("a" | "b") "<tool_call>"';
    const spelling = ["<", "tool", "_call", ">"].map(id);
    const run = async (maxNewTokens: number) => {
      const subject = new ToolCallConstraint({
        grammar: { syntax: "hermes-json", callOpen: "<tool_call>", callClose: "<tool_call>", tools: [] },
        texts: VOCABULARY.encoded,
        vocabulary: () => VOCABULARY,
        openerId: id("<tool_call>"),
        toolChoice: "required",
        thinking: false,
        maxNewTokens,
        createMatcher: async () => xgrammar.GrammarMatcher.createGrammarMatcher(await compile(FIXED_CLOSE), undefined, true),
        createPlanner: async () => PlannerGrammar.fromEbnf(FIXED_CLOSE),
        encode: (text) => (text === "<tool_call>" ? spelling : []),
      });
      for (const text of ["<tool_call>", "\n", "a"]) subject.observe(id(text));
      const ahead = await subject.prepare();
      const logits = new Float32Array(TEXTS.length);
      subject.apply(logits);
      return { ahead: ahead.map((token) => TEXTS[token]), allowed: TEXTS.filter((_, index) => logits[index] !== -Infinity) };
    };
    // With room, all but its last token are written ahead.
    expect(await run(100)).toEqual({ ahead: ["<", "tool", "_call"], allowed: [">"] });
    // Two tokens left: "<" ahead would leave "tool_call>" (two tokens) for one. Nothing is written; the one token that closes is.
    expect(await run(5)).toEqual({ ahead: [], allowed: ["<tool_call>"] });
  });

  it("auto: near the limit, no call opens that could not close in the tokens left", async () => {
    const subject = constraint("auto", false, 6, LETTERS);
    // 5 left after "hi": the opener and the shortest call after it ("\n", "a", "\n", "</tool_call>") fit.
    expect(masked(await allowedAfter(subject, ["hi"]))).toEqual(["<tool_call>x"]);
    // 4 left: they would not, so the opener is masked like under `none`.
    expect(masked(await allowedAfter(subject, ["hi"]))).toEqual(["<tool_call>", "<tool_call>x"]);
  });
});
