import type { AgentMessage } from "./agent-message.js";
import { LIMITS } from "./limits.js";
import { parseAgentMessages } from "./parse-agent-messages.js";
import { cancelOpenCalls } from "./session-reducer.js";

const VERSION = 1;

/** The default sessionStorage key for a conversation. */
export const DEFAULT_STORAGE_KEY = "web-agents:chat";

/** Where a conversation is kept: sessionStorage by default, or `false` for memory only. */
export interface ConversationStorage {
  load(): AgentMessage[];
  save(messages: readonly AgentMessage[]): void;
  clear(): void;
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    // A sandboxed frame or disabled storage throws on access.
    return undefined;
  }
}

/**
 * Keeps the last {@link LIMITS.storedMessages} messages under `key`. Content
 * that is corrupt, foreign or from another version is ignored (the session
 * starts fresh); calls that were open when it was saved load as cancelled.
 * Quota and access errors are swallowed: losing history beats losing the chat.
 */
export function createConversationStorage(
  key: string | false,
  storage: Storage | undefined = sessionStorageOrUndefined(),
): ConversationStorage {
  if (key === false || !storage) return { load: () => [], save: () => {}, clear: () => {} };
  return {
    load() {
      try {
        const raw = storage.getItem(key);
        if (raw === null) return [];
        const data = JSON.parse(raw) as { v?: unknown; messages?: unknown };
        if (data?.v !== VERSION) return [];
        return parseAgentMessages(data.messages).map(cancelOpenCalls);
      } catch {
        return [];
      }
    },
    save(messages) {
      try {
        let kept = messages.slice(-LIMITS.storedMessages);
        // Start the stored window at a user message, as a model request must.
        const firstUser = kept.findIndex((message) => message.role === "user");
        if (firstUser > 0) kept = kept.slice(firstUser);
        storage.setItem(key, JSON.stringify({ v: VERSION, messages: kept }));
      } catch {
        // Quota exceeded or storage disabled: the conversation stays in memory.
      }
    },
    clear() {
      try {
        storage.removeItem(key);
      } catch {
        // As above.
      }
    },
  };
}
