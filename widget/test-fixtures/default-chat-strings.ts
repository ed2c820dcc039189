import type { StepUsage } from "../../runtime/session/agent-stream-part.js";
import type { ChatLabels } from "../chat-labels.js";

type Functions<T> = { [Key in keyof T as T[Key] extends (...args: never[]) => unknown ? Key : never]: T[Key] };
type Samples<T> = { [Key in keyof Functions<T>]: Functions<T>[Key] extends (...args: infer Args) => unknown ? Args[] : never };

const ARG = "⟦arg⟧";
const usage: StepUsage = { promptTokens: 120, cachedPromptTokens: 80, outputTokens: 12, timeToFirstTokenMs: 1500, decodeTokensPerSecond: 21.5 };

/** Arguments for every label that is a function: each way it words its values (every key needs some, or this does not compile). */
const SAMPLES: Samples<ChatLabels> = {
  size: [[350_000_000], [1_200_000_000], [4_000]],
  downloaded: [[0.42, 350_000_000]],
  timeLeft: [[20], [200], [3_600], [3_900]],
  downloadIntro: [[ARG, ARG], [undefined, undefined]],
  downloadButton: [[ARG], [undefined]],
  downloading: [[ARG], [undefined]],
  loading: [[ARG]],
  modelPicker: [[ARG], [undefined]],
  modelDownload: [[ARG]],
  waitingForClick: [[ARG]],
  goTo: [[ARG]],
  agentTool: [[ARG]],
  agentWork: [[ARG]],
  confirmQuestion: [
    [ARG, false],
    [ARG, true],
  ],
  useAdapter: [[ARG]],
  usage: [[usage], [{ promptTokens: 5, outputTokens: 2, timeToFirstTokenMs: 300 }]],
};
const STATUS_SAMPLES: Samples<ChatLabels["adapterStatus"]> = { error: [[ARG]] };

/** The texts of `value` (a label, or the group of labels under it), a function label's on each of its samples. */
function texts(value: unknown, samples: Partial<Record<string, readonly (readonly unknown[])[]>>, key: string): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") return (samples[key] ?? []).map((args) => String((value as (...args: unknown[]) => unknown)(...args)));
  return Object.entries(value as object).flatMap(([inner, innerValue]) => texts(innerValue, STATUS_SAMPLES, inner));
}

/**
 * Every piece of text `labels` (the English defaults) can put on screen,
 * each function label run on sample values and cut at them and at numbers:
 * the pieces with a word of three letters or more ("Download (", "about",
 * "min left"), longest first. A chat in another language shows none of them.
 */
export function chatStrings(labels: ChatLabels): string[] {
  const pieces = new Set<string>();
  for (const [key, value] of Object.entries(labels)) {
    for (const text of texts(value, SAMPLES, key)) {
      for (const piece of text.split(ARG).flatMap((part) => part.split(/\d[\d.,]*/))) {
        const trimmed = piece.trim();
        if (/[A-Za-z]{3,}/.test(trimmed)) pieces.add(trimmed);
      }
    }
  }
  return [...pieces].sort((a, b) => b.length - a.length);
}

/** The pieces of `chatStrings` found in `text`, matched at word boundaries (case-sensitive). */
export function englishLeftIn(text: string, strings: readonly string[]): string[] {
  const escape = (piece: string) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return strings.filter((piece) => new RegExp(`(?<![A-Za-z])${escape(piece)}(?![A-Za-z])`).test(text));
}
