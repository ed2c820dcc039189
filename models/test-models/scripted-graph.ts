import { dimension, keepLastPositions } from "./graph-primitives.js";
import { OnnxGraphBuilder, type OnnxGraph } from "./onnx-graph-builder.js";
import type { ScriptedTokens } from "./scripted-tokens.js";

/** Options for `buildScriptedGraph`. */
export interface ScriptedGraphOptions {
  /** Width of the logits (151,936 for Qwen3). */
  vocabSize: number;
  /** Add transformers.js's optional `num_logits_to_keep` input (default true: prompts cost O(prompt), not O(prompt × vocab)). */
  logitsToKeepInput?: boolean;
}

/** The chosen token's logit; every other token gets 0, so sampling at any temperature picks it too. */
export const SCRIPTED_LOGIT = 100;

/**
 * A weightless Qwen3-compatible graph that replays a script through the real
 * `generate()`: with the KV cache on, each step sees only its new tokens, so
 * the cache carries the token ids themselves (`present.0.key`, [batch, 1,
 * total, 1]) and every step re-reads the whole transcript:
 *
 * - the generation starts after the last `<|im_start|>` and the generation
 *   prompt's length (`<|im_start|>assistant\n`, plus the empty thinking block
 *   when the template added one, or with `tokens.openThinking` Qwen3.5's
 *   open `<think>\n`), so the next reply token is
 *   `reply[query index + 1 - start]`, then `<|im_end|>`;
 * - the reply is `replies[n]`, n = the tool-result turns
 *   (`<|im_start|>user\n<tool_response>`) since the last real user turn,
 *   capped at the last reply; with `tokens.refusal`, its reply instead
 *   once a tool result since that turn starts with `Error [`.
 *
 * Every query position is computed causally (a marker counts only once all
 * its tokens are at or before the query), so logits with and without the
 * cache agree.
 */
export function buildScriptedGraph(tokens: ScriptedTokens, options: ScriptedGraphOptions): OnnxGraph {
  const graph = new OnnxGraphBuilder("qwen3-scripted");
  const float = (value: number): string => graph.constant("float32", [value], []);
  const int64 = (...values: number[]): string => graph.constant("int64", values);

  const sequence = ["batch_size", "sequence_length"];
  const inputIds = graph.input("input_ids", "int64", sequence);
  graph.input("attention_mask", "int64", ["batch_size", "total_sequence_length"]);
  graph.input("position_ids", "int64", sequence);
  const cacheShape = ["batch_size", 1, "past_sequence_length", 1];
  const pastKey = graph.input("past_key_values.0.key", "float32", cacheShape);
  const pastValue = graph.input("past_key_values.0.value", "float32", cacheShape);
  const logitsToKeep = (options.logitsToKeepInput ?? true) ? graph.input("num_logits_to_keep", "int64", []) : undefined;

  // Token ids as floats are exact below 2^24; Qwen3's vocabulary is 151,936.
  const step = graph.op("Unsqueeze", [graph.op("Cast", [inputIds], { to: 1 }), int64(1, 3)]);
  const presentKey = graph.op("Concat", [pastKey, step], { axis: 2 }, { output: "present.0.key" });
  graph.op("Concat", [pastValue, step], { axis: 2 }, { output: "present.0.value" });
  const transcript = graph.op("Squeeze", [presentKey, int64(1, 3)]); // [batch, total]

  const total = graph.op("Cast", [dimension(graph, transcript, 1)], { to: 1 });
  const length = graph.op("Cast", [dimension(graph, inputIds, 1)], { to: 1 });
  const keyIndex = graph.op("Range", [float(0), total, float(1)]); // [total]
  const queryIndex = graph.op("Range", [graph.op("Sub", [total, length]), total, float(1)]); // [seq]
  const queryColumn = graph.op("Unsqueeze", [queryIndex, int64(1)]); // [seq, 1]

  /** Token `index + offset` at each index (-1 past the end). */
  const shifted = (offset: number): string =>
    offset === 0
      ? transcript
      : graph.op("Slice", [graph.op("Pad", [transcript, int64(0, 0, 0, offset), float(-1)]), int64(offset), int64(2 ** 30), int64(1)]);
  /** [batch, 1, total]: `pattern` starts at this index. */
  const startsHere = (pattern: readonly number[]): string => {
    let match = graph.op("Equal", [transcript, float(pattern[0]!)]);
    for (let offset = 1; offset < pattern.length; offset++) {
      match = graph.op("And", [match, graph.op("Equal", [shifted(offset), float(pattern[offset]!)])]);
    }
    return graph.op("Unsqueeze", [match, int64(1)]);
  };
  /** [seq, total]: a marker at this index with `lookahead` more tokens is wholly at or before the query. */
  const visible = (lookahead: number): string =>
    graph.op("LessOrEqual", [graph.op("Add", [keyIndex, float(lookahead)]), queryColumn]);
  const lastAxis = int64(-1);

  // Which reply: tool-result turns since the last real user turn.
  const toolTurnStarts = startsHere(tokens.toolTurn);
  const toolTurnSeen = graph.op("And", [toolTurnStarts, visible(tokens.toolTurn.length - 1)]);
  const realUserSeen = graph.op("And", [
    graph.op("And", [startsHere(tokens.userTurn), graph.op("Not", [toolTurnStarts])]),
    visible(tokens.toolTurn.length - 1),
  ]);
  const lastRealUser = graph.op("ReduceMax", [graph.op("Where", [realUserSeen, keyIndex, float(-1)])], { axes: [-1], keepdims: 1 });
  const toolTurns = graph.op(
    "ReduceSum",
    [graph.op("Cast", [graph.op("And", [toolTurnSeen, graph.op("Greater", [keyIndex, lastRealUser])])], { to: 1 }), lastAxis],
    { keepdims: 0 },
  );
  let replyIndex = graph.op("Min", [toolTurns, float(tokens.replies.length - 1)]);
  const replies = tokens.refusal ? [...tokens.replies, tokens.refusal.reply] : tokens.replies;
  if (tokens.refusal) {
    // A failed call's result since the last real user turn: the refusal row (the table's last) instead of the script.
    const { marker } = tokens.refusal;
    const errorSeen = graph.op("And", [graph.op("And", [startsHere(marker), visible(marker.length - 1)]), graph.op("Greater", [keyIndex, lastRealUser])]);
    const failed = graph.op("ReduceMax", [graph.op("Cast", [errorSeen], { to: 1 })], { axes: [-1], keepdims: 0 });
    replyIndex = graph.op("Where", [graph.op("Greater", [failed, float(0)]), float(tokens.replies.length), replyIndex]);
  }

  // Where the reply starts: after the last `<|im_start|>`'s header (+ the
  // empty thinking block, or Qwen3.5's open `<think>\n`).
  const thinkingOffset = (block: readonly number[]): string => {
    const withBlock = [...tokens.assistantHeader, ...block];
    const seen = graph.op("Cast", [graph.op("And", [startsHere(withBlock), visible(withBlock.length - 1)])], { to: 1 });
    return graph.op("Mul", [seen, float(block.length)]);
  };
  let startCandidate = graph.op("Add", [graph.op("Add", [keyIndex, float(tokens.assistantHeader.length)]), thinkingOffset(tokens.emptyThinking)]);
  if (tokens.openThinking) startCandidate = graph.op("Add", [startCandidate, thinkingOffset(tokens.openThinking)]);
  const turnSeen = graph.op("And", [startsHere(tokens.userTurn.slice(0, 1)), visible(0)]);
  const replyStart = graph.op("ReduceMax", [graph.op("Where", [turnSeen, startCandidate, float(-1e9)])], { axes: [-1], keepdims: 0 });

  // The script as one table: row r holds reply r, then end-of-turn to the end of the row.
  const rowLength = Math.max(...replies.map((reply) => reply.length)) + 1;
  const table = replies.flatMap((reply) => [...reply, ...Array<number>(rowLength - reply.length).fill(tokens.endOfTurn)]);
  const emitted = graph.op("Sub", [graph.op("Add", [queryIndex, float(1)]), replyStart]); // reply tokens already in the transcript
  const column = graph.op("Clip", [emitted, float(0), float(rowLength - 1)]);
  let cell = graph.op("Cast", [graph.op("Add", [graph.op("Mul", [replyIndex, float(rowLength)]), column])], { to: 7 });
  if (logitsToKeep !== undefined) cell = keepLastPositions(graph, cell, logitsToKeep);
  const next = graph.op("Gather", [graph.constant("int64", table), cell], { axis: 0 }); // [batch, kept]

  const vocabulary = graph.op("Range", [graph.constant("int64", [0], []), graph.constant("int64", [options.vocabSize], []), graph.constant("int64", [1], [])]);
  const chosen = graph.op("Equal", [graph.op("Unsqueeze", [next, int64(2)]), vocabulary]);
  graph.op("Where", [chosen, float(SCRIPTED_LOGIT), float(0)], {}, { output: "logits" });

  graph.output("logits", "float32", ["batch_size", logitsToKeep === undefined ? "sequence_length" : "logits_length", options.vocabSize]);
  const presentShape = ["batch_size", 1, "total_sequence_length", 1];
  graph.output("present.0.key", "float32", presentShape);
  graph.output("present.0.value", "float32", presentShape);
  return graph.build();
}
