import type { AdapterStatus } from "../runtime/session/agent-adapter.js";
import { DEFAULT_CHAT_LABELS, type ChatLabels } from "./chat-labels.js";

/**
 * What the composer says when the adapter cannot take a message, by status
 * (the adapter types reference: "The composer explains any state but ready"),
 * in `labels.adapterStatus`. `undefined` for `ready`. A `loading` with
 * progress is a model read from this device, worded as a load; without
 * progress it is a connection check. `unavailable` says the adapter's own
 * reason; `error` the label of its code (`labels.errors`), else its own
 * message.
 */
export function explainAdapterStatus(status: AdapterStatus, labels: ChatLabels = DEFAULT_CHAT_LABELS): string | undefined {
  const words = labels.adapterStatus;
  switch (status.state) {
    case "ready":
      return undefined;
    case "unavailable":
      return status.reason;
    case "needs-download":
    case "downloading":
      return words[status.state];
    case "loading":
      return status.progress === undefined ? words.connecting : words.loading;
    case "error":
      return words.error((status.code && labels.errors[status.code]) || status.error);
  }
}

