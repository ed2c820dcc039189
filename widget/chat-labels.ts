import type { AgentErrorCode, StepUsage } from "../runtime/session/agent-stream-part.js";
import type { ToolCallState } from "../runtime/session/tool-call-state.js";
import { formatBytes, formatDownloaded } from "../runtime/errors/format-bytes.js";
import { formatTimeLeft } from "./time-left.js";

/**
 * Every word `<AgentChat>` and its cursor show or announce (text, `aria-label`,
 * placeholder), by key: `DEFAULT_CHAT_LABELS` in English, replaced in part
 * with the chat's `labels`. A string with a value in it is a function of
 * that value, so a translation orders its words as its language does.
 * Sizes, progress and time left are functions too: format them for your
 * locale (`Intl.NumberFormat`). What the runtime words itself (an error's
 * own message, an unavailable adapter's reason, a tool's prompt) is not
 * here: see the labels guide.
 */
export interface ChatLabels {
  /** The heading, and the chat's accessible name. `<AgentChat title>` wins over it. */
  title: string;
  /** The message field's placeholder. `<AgentChat placeholder>` wins over it. */
  placeholder: string;
  /** Shown before the first message. `<AgentChat emptyText>` wins over it. */
  emptyText: string;
  newChat: string;
  /** The adapter switcher's label. */
  runOn: string;
  /** The conversation log's accessible name. */
  conversation: string;
  /** While the reply has not started. */
  working: string;
  /** Read by screen readers before a person's message. */
  you: string;
  /** Under a reply the person stopped. */
  stopped: string;
  /** The message field's accessible name. */
  message: string;
  send: string;
  stop: string;
  tryAgain: string;
  cancel: string;
  /** What the composer says while the adapter cannot take a message, by its state (`unavailable` shows the adapter's own reason). */
  adapterStatus: {
    "needs-download": string;
    downloading: string;
    /** `loading` without progress: a connection check. */
    connecting: string;
    /** `loading` with progress: a model read from this device. */
    loading: string;
    /** `error`: `detail` is the adapter's message, or the label of its code. */
    error: (detail: string) => string;
  };
  /** A download size: `350 MB`. */
  size: (bytes: number) => string;
  /** How much of a download has arrived: `147 of 350 MB`. */
  downloaded: (progress: number, totalBytes: number) => string;
  /** `about 20 s left`. */
  timeLeft: (seconds: number) => string;
  /** The download card's accessible name. */
  downloadCard: string;
  /** The download card's sentence; `model` is its name (shown bold), `size` from `size`. */
  downloadIntro: (model: string | undefined, size: string | undefined) => string;
  downloadButton: (size: string | undefined) => string;
  downloadingCard: string;
  downloading: (model: string | undefined) => string;
  downloadProgress: string;
  connectingCard: string;
  connecting: string;
  startingCard: string;
  starting: string;
  loadingCard: string;
  /** `percent` as `42%`. */
  loading: (percent: string) => string;
  loadingProgress: string;
  setupFailedCard: string;
  /** The model picker's summary. */
  modelPicker: (model: string | undefined) => string;
  switchingModel: string;
  chooseModel: string;
  recommended: string;
  onThisDevice: string;
  /** A model not on this device, its size from `size`. */
  modelDownload: (size: string) => string;
  /** A tool call's state. */
  toolStates: Record<ToolCallState, string>;
  /** A call parked on a control of the page; `control` is its label there. */
  waitingForClick: (control: string) => string;
  notAllowed: string;
  toolHeading: string;
  inputHeading: string;
  outputHeading: string;
  errorHeading: string;
  stoppedHeading: string;
  /** The button that focuses a parked call's control. */
  goTo: (control: string) => string;
  /** A `delegate_to_<id>` call's title, and the label of its nested run. */
  agentTool: (id: string) => string;
  /** The nested run's accessible name. */
  agentWork: (id: string) => string;
  /** The question of a call the tool policy holds; `action` is the tool's name in words (`place order`). */
  confirmQuestion: (action: string, untrustedContent: boolean) => string;
  /** The Allow / Don't allow group's accessible name. */
  confirmGroup: string;
  allow: string;
  deny: string;
  /** What a failed run means, by its code (shown with the error's own message). */
  errors: Record<AgentErrorCode, string>;
  /** The button that switches to another adapter after a failure; `adapter` is its `label`. */
  useAdapter: (adapter: string) => string;
  /** The developer's line of what the last step cost (`usage`). */
  usage: (usage: StepUsage) => string;
}

/** A partial `ChatLabels`, as `labels` takes it: any key left out, and any of `adapterStatus`, `toolStates` and `errors`, keeps its default. */
export type ChatLabelsInput = {
  [Key in keyof ChatLabels]?: ChatLabels[Key] extends (...args: never[]) => unknown ? ChatLabels[Key] : Partial<ChatLabels[Key]>;
};

/** `1.2 s`, `350 ms`. */
const duration = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** The chat's English words. */
export const DEFAULT_CHAT_LABELS: ChatLabels = {
  title: "Assistant",
  placeholder: "Ask about this page…",
  emptyText: "Ask me to do something on this page.",
  newChat: "New chat",
  runOn: "Run on",
  conversation: "Conversation",
  working: "Working…",
  you: "You:",
  stopped: "Stopped",
  message: "Message",
  send: "Send",
  stop: "Stop",
  tryAgain: "Try again",
  cancel: "Cancel",
  adapterStatus: {
    "needs-download": "Download the model above to start chatting. It runs on this device.",
    downloading: "You can chat once the download finishes.",
    connecting: "Connecting… You can chat once the assistant answers.",
    loading: "Loading the model from this device… You can chat once it has loaded.",
    error: (detail) => `The assistant could not start: ${detail}`,
  },
  size: formatBytes,
  downloaded: formatDownloaded,
  timeLeft: formatTimeLeft,
  downloadCard: "Download the model",
  downloadIntro: (model, size) => `${model ?? "The model"} runs on this device, after a one-time download${size ? ` of ${size}` : ""}.`,
  downloadButton: (size) => (size ? `Download (${size})` : "Download"),
  downloadingCard: "Downloading the model",
  downloading: (model) => `Downloading ${model ?? "the model"}…`,
  downloadProgress: "Download progress",
  connectingCard: "Connecting",
  connecting: "Connecting…",
  startingCard: "Starting the model",
  starting: "Starting the model on this device…",
  loadingCard: "Loading the model",
  loading: (percent) => `Loading the model from this device… ${percent}`,
  loadingProgress: "Loading progress",
  setupFailedCard: "Setup failed",
  modelPicker: (model) => `Model: ${model ?? "none chosen"}`,
  switchingModel: "(switching…)",
  chooseModel: "Choose a model",
  recommended: "Recommended",
  onThisDevice: "On this device",
  modelDownload: (size) => `${size} download`,
  toolStates: {
    running: "Running…",
    "awaiting-confirmation": "Waiting for you",
    done: "Done",
    error: "Failed",
    cancelled: "Cancelled",
  },
  waitingForClick: (control) => `Waiting for you to click ${control}`,
  notAllowed: "Not allowed",
  toolHeading: "Tool",
  inputHeading: "Input",
  outputHeading: "Output",
  errorHeading: "Error",
  stoppedHeading: "Why it stopped",
  goTo: (control) => `Go to ${control}`,
  agentTool: (id) => `${id} agent`,
  agentWork: (id) => `The ${id} agent's work`,
  confirmQuestion: (action, untrustedContent) =>
    `The assistant wants to ${action}${untrustedContent ? " after reading content this site does not vouch for" : ""}. Allow it?`,
  confirmGroup: "Allow this step?",
  allow: "Allow",
  deny: "Don't allow",
  errors: {
    chat_disabled: "Chat is turned off on this site right now.",
    rate_limited: "That's a lot of messages for now. Wait a little, then try again.",
    bad_request: "The assistant couldn't take that request. Try again, or start a new chat if it keeps happening.",
    network: "Couldn't reach the assistant. Check your connection, then try again.",
    busy: "The assistant is busy right now. Try again in a moment.",
    forbidden_origin: "This site is not allowed to use its assistant from this address.",
    session_required: "The chat session could not start. Try again.",
    internal: "The assistant failed on the server. Try again.",
    worker_died: "The on-device model stopped, perhaps out of memory. Try again to restart it.",
    quota_exceeded: "This device has no room for the model.",
    not_cached: "The model is not on this device. Download it above to chat here.",
    download_failed: "The model's download did not finish.",
    integrity_failed: "The model's download arrived damaged and was not kept.",
    load_failed: "The on-device model could not load.",
    unsupported_device: "This browser cannot run the on-device model.",
    generation_failed: "The on-device model failed while answering.",
    context_overflow: "This conversation no longer fits the on-device model. Start a new chat, or use another model.",
  },
  useAdapter: (adapter) => `Use ${adapter}`,
  usage: (usage) =>
    [
      `${usage.promptTokens} tokens in${usage.cachedPromptTokens ? ` (${usage.cachedPromptTokens} reused)` : ""}`,
      `${usage.outputTokens} out`,
      ...(usage.timeToFirstTokenMs ? [`first token in ${duration(usage.timeToFirstTokenMs)}`] : []),
      ...(usage.decodeTokensPerSecond ? [`${usage.decodeTokensPerSecond.toFixed(1)} tokens/s`] : []),
    ].join(" · "),
};

/** `labels` over the defaults: what it leaves out (a key, or one entry of a nested group) keeps its default. */
export function mergeChatLabels(labels: ChatLabelsInput | undefined): ChatLabels {
  if (!labels) return DEFAULT_CHAT_LABELS;
  const merged = { ...DEFAULT_CHAT_LABELS, ...labels } as ChatLabels;
  merged.adapterStatus = { ...DEFAULT_CHAT_LABELS.adapterStatus, ...labels.adapterStatus };
  merged.toolStates = { ...DEFAULT_CHAT_LABELS.toolStates, ...labels.toolStates };
  merged.errors = { ...DEFAULT_CHAT_LABELS.errors, ...labels.errors };
  return merged;
}


const NESTED: readonly string[] = ["adapterStatus", "toolStates", "errors"];

/** Whether two objects hold the same values under the same keys; `nested` keys compared so one level down. */
function sameValues(a: object | undefined, b: object | undefined, nested: readonly string[] = []): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length &&
    keys.every((key) => (nested.includes(key) ? sameValues(x[key] as object, y[key] as object) : Object.is(x[key], y[key])))
  );
}

/** Whether two `labels` inputs say the same, key by key: an inline object each render is not a change. */
export const sameChatLabels = (a: ChatLabelsInput | undefined, b: ChatLabelsInput | undefined): boolean => sameValues(a, b, NESTED);
