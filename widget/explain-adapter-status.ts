import type { AdapterStatus } from "../runtime/session/agent-adapter.js";

/**
 * What the composer says when the adapter cannot take a message, by status
 * (the adapter types reference: "The composer explains any state but ready").
 * `undefined` for `ready`. A `loading` with progress is a model read from
 * this device, worded as a load; without progress it is a connection check.
 */
export function explainAdapterStatus(status: AdapterStatus): string | undefined {
  switch (status.state) {
    case "ready":
      return undefined;
    case "unavailable":
      return status.reason;
    case "needs-download":
      return "Download the model above to start chatting. It runs on this device.";
    case "downloading":
      return "You can chat once the download finishes.";
    case "loading":
      return status.progress === undefined
        ? "Connecting… You can chat once the assistant answers."
        : "Loading the model from this device… You can chat once it has loaded.";
    case "error":
      return `The assistant could not start: ${status.error}`;
  }
}
