import { useMemo, useSyncExternalStore } from "react";
import type { AgentAdapter, ModelChoice } from "../runtime/session/agent-adapter.js";

const NONE: readonly ModelChoice[] = Object.freeze([]);
const noSubscription = () => () => {};

/**
 * `adapter.models()`, kept current through `adapter.subscribe()` (a model
 * becomes cached after its download, another one selected). The same array
 * until the list's content changes. `[]` for an adapter without `models`,
 * or whose `models()` throws.
 */
export function useAdapterModels(adapter: AgentAdapter): readonly ModelChoice[] {
  const store = useMemo(() => {
    let last = NONE;
    let lastKey = "[]";
    return {
      subscribe: adapter.subscribe ? (listener: () => void) => adapter.subscribe!(listener) : noSubscription,
      getSnapshot(): readonly ModelChoice[] {
        let models: readonly ModelChoice[];
        try {
          models = adapter.models?.() ?? NONE;
        } catch {
          models = NONE;
        }
        const key = JSON.stringify(models);
        if (key !== lastKey) {
          last = models;
          lastKey = key;
        }
        return last;
      },
    };
  }, [adapter]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
