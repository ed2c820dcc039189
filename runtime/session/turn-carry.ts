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
