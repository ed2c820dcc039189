/**
 * Where the chat remembers which adapter the person chose, by adapter id:
 * localStorage (it is a preference, kept across visits), under `key`.
 * `false` remembers nothing. Access errors (disabled storage, a sandboxed
 * frame) are swallowed: the choice then lasts as long as the component.
 */
export interface AdapterChoiceStorage {
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

/** The localStorage key for `storageKey`'s adapter choice: `"<storageKey>:adapter"`. */
export const adapterChoiceKey = (storageKey: string) => `${storageKey}:adapter`;

/** Creates the choice storage for `key` (`false`: memory only). `storage` is for tests. Default `localStorage`. */
export function createAdapterChoiceStorage(
  key: string | false,
  storage: Storage | undefined = localStorageOrUndefined(),
): AdapterChoiceStorage {
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
