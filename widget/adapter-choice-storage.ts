import { createChoiceStorage, type ChoiceStorage } from "../runtime/session/choice-storage.js";

/**
 * Where the chat remembers which adapter the person chose, by adapter id:
 * localStorage under `key` (see `createChoiceStorage`). `false` remembers nothing.
 */
export type AdapterChoiceStorage = ChoiceStorage;

/** The localStorage key for `storageKey`'s adapter choice: `"<storageKey>:adapter"`. */
export const adapterChoiceKey = (storageKey: string) => `${storageKey}:adapter`;

/** Creates the choice storage for `key` (`false`: memory only). `storage` is for tests. Default `localStorage`. */
export const createAdapterChoiceStorage: (key: string | false, storage?: Storage) => AdapterChoiceStorage = createChoiceStorage;
