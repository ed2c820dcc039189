import type { ToolCallGrammar } from "../../../models/model-format.js";
import { PlannerGrammar } from "../budget/planner-grammar.js";
import { notify } from "../constraint-observer.js";
import { buildCallGrammar } from "../grammar/build-call-grammar.js";
import type { XGrammar } from "../load-xgrammar.js";
import type { Vocabulary } from "./tokenizer-vocabulary.js";

type XGrammarModule = typeof import("@mlc-ai/web-xgrammar");
type TokenizerInfo = InstanceType<XGrammarModule["TokenizerInfo"]>;
type GrammarCompiler = Awaited<ReturnType<XGrammarModule["GrammarCompiler"]["createGrammarCompiler"]>>;
export type CompiledGrammar = Awaited<ReturnType<GrammarCompiler["compileGrammar"]>>;

/** A tool set's call grammar, compiled for one tokenizer, with its planner reading (undefined: it could not be read). */
export interface CompiledCall {
  compiled: CompiledGrammar;
  planner?: PlannerGrammar;
}

/** Compiled call grammars kept per tokenizer (the tools of a few agents); the oldest is dropped. */
const MAX_GRAMMARS = 8;

/**
 * xgrammar's side of a tokenizer: its TokenizerInfo, a compiler bound to it,
 * and the call grammars compiled with it, by tool set. Nothing of it can be
 * serialised in web-xgrammar 0.1.27, so it lives in the worker's memory; it
 * is built in the background after a constrained generation starts
 * (tool-call-constraint/transformers-constraint.ts), never before a first token.
 */
export class XGrammarTokenizer {
  readonly xgrammar: XGrammar;
  readonly info: TokenizerInfo;
  readonly compiler: GrammarCompiler;
  /** Milliseconds xgrammar took to build its TokenizerInfo and compiler. */
  readonly buildMs: number;
  readonly #compiled = new Map<string, Promise<CompiledCall>>();

  private constructor(xgrammar: XGrammar, info: TokenizerInfo, compiler: GrammarCompiler, buildMs: number) {
    this.xgrammar = xgrammar;
    this.info = info;
    this.compiler = compiler;
    this.buildMs = buildMs;
  }

  static async create(xgrammar: XGrammar, vocabulary: Vocabulary): Promise<XGrammarTokenizer> {
    const started = performance.now();
    const info = await xgrammar.TokenizerInfo.createTokenizerInfo(vocabulary.encoded, "byte_level", false, vocabulary.vocabSize, vocabulary.stopIds);
    // xgrammar's own cache keys grammars by their printed form and parses that again, and its printer writes
    // U+0080-U+00FF as `\xHH`, which its parser reads on into a following hex digit ("ïc" becomes "໼"): off.
    // Compiled grammars are kept here instead, by tool set.
    const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
    return new XGrammarTokenizer(xgrammar, info, compiler, performance.now() - started);
  }

  /** The call grammar of `grammar`'s tools, compiled once per tool set (its warnings told once, then). */
  compile(grammar: ToolCallGrammar): Promise<CompiledCall> {
    const key = JSON.stringify([grammar.syntax, grammar.callOpen, grammar.callClose, grammar.tools]);
    let compiled = this.#compiled.get(key);
    if (compiled) {
      // Most recently used last: the oldest is the one dropped.
      this.#compiled.delete(key);
      this.#compiled.set(key, compiled);
      return compiled;
    }
    compiled = (async () => {
      const started = performance.now();
      const { ebnf, plannerEbnf, warnings } = buildCallGrammar(grammar);
      for (const line of warnings) console.warn(`[web-agents] ${line}`);
      const grammarCompiled = await this.compiler.compileGrammar(ebnf, "root");
      notify("compiled", { ms: performance.now() - started, tools: grammar.tools.length, syntax: grammar.syntax });
      return { compiled: grammarCompiled, ...plannerFor(plannerEbnf) };
    })();
    compiled.catch(() => this.#compiled.delete(key));
    this.#compiled.set(key, compiled);
    if (this.#compiled.size > MAX_GRAMMARS) {
      const [oldest, dropped] = this.#compiled.entries().next().value as [string, Promise<CompiledCall>];
      this.#compiled.delete(oldest);
      void dropped.then((call) => call.compiled.dispose()).catch(() => {});
    }
    return compiled;
  }
}

/** The planner's reading of a call grammar; a grammar it cannot read leaves that call masked only, said once. */
function plannerFor(ebnf: string): { planner?: PlannerGrammar } {
  try {
    return { planner: PlannerGrammar.fromEbnf(ebnf) };
  } catch (error) {
    console.warn(`[web-agents] Tool calls near the token limit may be cut: the call grammar could not be planned (${error instanceof Error ? error.message : String(error)}).`);
    return {};
  }
}
