import { AFTER_CALL_SETTLE, waitForToolsToSettle } from "../core/settle-tools.js";
import type { AgentMessage } from "./agent-message.js";

/**
 * How long after a page goes mid-turn the next page of the site still
 * continues the turn. A page loaded later (a reload an hour on, a tab
 * restored the next day) shows the conversation and leaves the turn ended.
 */
export const CONTINUE_TURN_WITHIN_MS = 30_000;

const VERSION = 1;

/** What a page leaves under `<storageKey>:turn` when it goes while a run streams. */
interface LeftTurn {
  v: typeof VERSION;
  /** When the page went (Date.now()). */
  at: number;
  /** A call was waiting for the person's click: such a turn never continues on its own. */
  parked: boolean;
}

/** A turn one page leaves for the next page of the site (a tool that navigated, a link). */
export interface TurnCarry {
  /** Called as the page goes while a run streams. */
  leave(parked: boolean): void;
  /**
   * Whether the last page left a turn this page continues: it went less
   * than {@link CONTINUE_TURN_WITHIN_MS} ago and no call was waiting for a
   * click. Leaves it for {@link TurnCarry.take}.
   */
  waiting(): boolean;
  /** The same answer, and the turn removed: one session continues it, once. */
  take(): boolean;
  /** Forgets a turn left (the page came back from the back-forward cache, and runs on itself). */
  clear(): void;
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a turn in flight across a full-page navigation of the same site,
 * beside the conversation (session-storage.ts): sessionStorage is this
 * tab's and this origin's only, so another site or another tab never sees
 * it. Storage errors are swallowed: the turn then ends as before, with
 * Try again.
 */
export function createTurnCarry(conversationKey: string | false, storage: Storage | undefined = sessionStorageOrUndefined(), now: () => number = Date.now): TurnCarry {
  if (conversationKey === false || !storage) return { leave: () => {}, waiting: () => false, take: () => false, clear: () => {} };
  const key = `${conversationKey}:turn`;
  const remove = () => {
    try {
      storage.removeItem(key);
    } catch {
      // Storage disabled: nothing was kept.
    }
  };
  return {
    leave(parked) {
      try {
        storage.setItem(key, JSON.stringify({ v: VERSION, at: now(), parked } satisfies LeftTurn));
      } catch {
        // Quota or access: the turn ends with the page, as without this.
      }
    },
    waiting() {
      let left: Partial<LeftTurn> | undefined;
      try {
        left = JSON.parse(storage.getItem(key) ?? "null") as Partial<LeftTurn> | undefined;
      } catch {
        return false;
      }
      if (left?.v !== VERSION || typeof left.at !== "number" || left.parked !== false) return false;
      const age = now() - left.at;
      return age >= 0 && age < CONTINUE_TURN_WITHIN_MS;
    },
    take() {
      const waiting = this.waiting();
      remove();
      return waiting;
    },
    clear: remove,
  };
}

/** What {@link carryTurn} needs of a session (create-agent-session.ts). */
export interface CarriedSession {
  /** Whether a run streams now. */
  streaming(): boolean;
  messages(): readonly AgentMessage[];
  /** Whether the person has sent, retried or reset in this session: it then continues no turn. */
  acted(): boolean;
  /** Continues the turn. */
  retry(): void;
}

/**
 * A watched session's part in a turn across pages: continues the turn the
 * last page left, once the page's tools settle (150 ms quiet, at most 1.5 s:
 * the page may still be giving the chat its adapters), and leaves a note as
 * this page goes while a run streams. The note is taken only when the turn
 * continues, so a session replaced before then leaves it to the next; one
 * the person acted on first removes it. Returns a function that stops.
 */
export function carryTurn(key: string | false, storage: Storage | undefined, session: CarriedSession): () => void {
  const carry = createTurnCarry(key, storage);
  const settling = new AbortController();
  if (carry.waiting()) {
    void waitForToolsToSettle({ ...AFTER_CALL_SETTLE, signal: settling.signal }).then(() => {
      if (settling.signal.aborted) return;
      const mayContinue = !session.acted() && !session.streaming() && session.messages().some((message) => message.role === "user");
      if (!mayContinue) carry.clear();
      else if (carry.take()) session.retry();
    });
  }
  const stopWatching = watchPageExit(() => session.streaming() && carry.leave(hasCallAwaitingClick(session.messages())), carry.clear);
  return () => {
    settling.abort();
    stopWatching();
  };
}

/** Whether a call (a sub-agent's too) waits for the person's click: a turn left so never continues on its own. */
function hasCallAwaitingClick(messages: readonly AgentMessage[]): boolean {
  return messages.some((message) => message.parts.some((part) => part.type === "tool" && (part.state === "awaiting-confirmation" || (part.agent !== undefined && hasCallAwaitingClick(part.agent.messages)))));
}

/** Calls `leaving` as the page goes (`pagehide`), and `back` when it returns from the back-forward cache. */
function watchPageExit(leaving: () => void, back: () => void): () => void {
  const target = globalThis as Partial<Pick<Window, "addEventListener" | "removeEventListener">>;
  if (!target.addEventListener || !target.removeEventListener) return () => {};
  const onShow = (event: PageTransitionEvent) => event.persisted && back();
  target.addEventListener("pagehide", leaving);
  target.addEventListener("pageshow", onShow);
  return () => {
    target.removeEventListener!("pagehide", leaving);
    target.removeEventListener!("pageshow", onShow);
  };
}
