/**
 * A remembered choice (which adapter, which model), kept in localStorage: it
 * is a preference, kept across visits. `false` remembers nothing. Access
 * errors (disabled storage, a sandboxed frame, quota) are swallowed: the
 * choice then lasts as long as the page.
 */
export interface ChoiceStorage {
  /** The remembered id, if any. */
  load(): string | undefined;
  save(id: string): void;
}

function localStorageOrUndefined(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Creates the choice storage for `key` (`false`: memory only). `storage` is for tests. Default `localStorage`. */
export function createChoiceStorage(key: string | false, storage: Storage | undefined = localStorageOrUndefined()): ChoiceStorage {
  if (key === false || !storage) return { load: () => undefined, save: () => {} };
  return {
    load() {
      try {
        return storage.getItem(key) ?? undefined;
      } catch {
        return undefined;
      }
    },
    save(id) {
      try {
        storage.setItem(key, id);
      } catch {
        // Quota or access: the choice stays in memory.
      }
    },
  };
}
