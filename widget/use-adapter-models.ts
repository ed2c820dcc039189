import { useMemo, useSyncExternalStore } from "react";
import type { AgentAdapter, ModelChoice } from "../runtime/session/agent-adapter.js";

const NONE: readonly ModelChoice[] = Object.freeze([]);

/**
 * `adapter.models()`, kept current through `adapter.subscribe()` (a model
 * becomes cached after its download, another one selected). The same array
 * until the list's content changes. `[]` for an adapter without `models`,
 * or whose `models()` throws, and until the component has mounted: the list
 * is read when React subscribes, never during a render, since the local
 * adapter's first `models()` starts its engine worker.
 */
export function useAdapterModels(adapter: AgentAdapter): readonly ModelChoice[] {
  const store = useMemo(() => {
    let last = NONE;
    let lastKey = "[]";
    const read = (): boolean => {
      let models: readonly ModelChoice[];
      try {
        models = adapter.models?.() ?? NONE;
      } catch {
        models = NONE;
      }
      const key = JSON.stringify(models);
      if (key === lastKey) return false;
      last = models;
      lastKey = key;
      return true;
    };
    return {
      subscribe(listener: () => void): () => void {
        const unsubscribe = adapter.subscribe?.(() => {
          if (read()) listener();
        });
        if (read()) listener();
        return () => unsubscribe?.();
      },
      getSnapshot: (): readonly ModelChoice[] => last,
    };
  }, [adapter]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
