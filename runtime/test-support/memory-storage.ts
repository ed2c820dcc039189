/** A `Storage` of one's own (Node has none), optionally holding some items already. */
export function memoryStorage(initial: Iterable<[string, string]> = []): Storage {
  const items = new Map(initial);
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}
