/**
 * The bench page's main-thread health during a generation: long tasks
 * (PerformanceObserver `longtask`) and, where the browser has the Long
 * Animation Frames API, what ran in each frame over 50 ms.
 */
import type { GenerationSample } from "./bench-types.js";

interface LoafScript {
  duration: number;
  invoker?: string;
  sourceURL?: string;
  sourceFunctionName?: string;
}

/** `"<ms> ms <invoker> (<file>:<function>)"` for a long frame's scripts, longest first. */
function describeFrame(duration: number, scripts: LoafScript[]): string {
  const file = (url = "") => url.replace(/^[a-z]+:\/\/[^/]+/, "").replace(/\?.*$/, "") || "?";
  const parts = [...scripts]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, 3)
    .map((script) => `${Math.round(script.duration)} ms ${script.invoker ?? "script"} (${file(script.sourceURL)}${script.sourceFunctionName ? `:${script.sourceFunctionName}` : ""})`);
  return `${Math.round(duration)} ms frame: ${parts.length ? parts.join("; ") : "no script (style, layout, GC or the browser itself)"}`;
}

/** What a {@link longTaskRecorder} saw. */
export type LongTaskRecord = Pick<GenerationSample, "longTasks" | "longestTaskMs" | "longTaskScripts">;

/** Records main-thread long tasks, and what ran in long animation frames, between `start()` and `stop()`. */
export function longTaskRecorder() {
  const durations: number[] = [];
  const frames: { duration: number; label: string }[] = [];
  const observers: PerformanceObserver[] = [];
  const observe = (type: string, onEntry: (entry: PerformanceEntry) => void) => {
    if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return;
    const observer = new PerformanceObserver((list) => list.getEntries().forEach(onEntry));
    observer.observe({ type, buffered: false });
    observers.push(observer);
  };
  return {
    start() {
      observe("longtask", (entry) => durations.push(entry.duration));
      observe("long-animation-frame", (entry) => {
        if (entry.duration > 50) frames.push({ duration: entry.duration, label: describeFrame(entry.duration, (entry as PerformanceEntry & { scripts?: LoafScript[] }).scripts ?? []) });
      });
    },
    stop(): LongTaskRecord {
      for (const observer of observers) {
        observer.takeRecords().forEach((entry) => {
          if (entry.entryType === "longtask") durations.push(entry.duration);
        });
        observer.disconnect();
      }
      return {
        longTasks: durations.length,
        longestTaskMs: durations.length ? Math.max(...durations) : 0,
        longTaskScripts: frames.sort((a, b) => b.duration - a.duration).map((frame) => frame.label),
      };
    },
  };
}
