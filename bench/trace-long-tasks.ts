/**
 * Attributes the page's main-thread long tasks from a Chromium trace of
 * DevTools' timeline categories
 * (`npm run bench -- --trace`): for each task over 50 ms on the bench page's
 * main thread, its wall time, the time the thread actually ran on a CPU
 * (`tdur`), the garbage collection inside it, and which path's generation
 * it fell in (the page marks each generation with a user timing measure,
 * `bench:<path>`; a task counts as a generation's when at least half of it
 * lies inside the measure). A task with little CPU time was the operating system
 * running something else, not the page's own work.
 */

/** A Chrome trace event, as much of it as this reads. */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  id2?: { local?: string; global?: string };
  args?: { name?: string };
}

export interface TracedLongTask {
  /** The path generating when the task ran, or null outside every generation. */
  path: string | null;
  wallMs: number;
  /** Time the main thread spent on a CPU during the task; null where the trace has no thread times. */
  cpuMs: number | null;
  /** Garbage collection inside the task. */
  gcMs: number;
}

/** The trace's thread name events: `pid:tid` -> name. */
function threadNames(events: TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const event of events) if (event.ph === "M" && event.name === "thread_name" && event.args?.name) names.set(`${event.pid}:${event.tid}`, event.args.name);
  return names;
}

/** The `bench:<path>` measures as [start, end, path], from their async begin/end pairs. */
function generationSpans(events: TraceEvent[]): { pid: number; spans: [number, number, string][] } | undefined {
  const open = new Map<string, TraceEvent>();
  const spans: [number, number, string][] = [];
  let pid: number | undefined;
  for (const event of events) {
    if (!event.name.startsWith("bench:") || !(event.cat ?? "").includes("blink.user_timing")) continue;
    const key = `${event.name}:${event.id ?? event.id2?.local ?? event.id2?.global ?? ""}`;
    if (event.ph === "b") open.set(key, event);
    else if (event.ph === "e") {
      const begin = open.get(key);
      if (!begin) continue;
      open.delete(key);
      spans.push([begin.ts, event.ts, event.name.slice("bench:".length)]);
      pid = event.pid;
    }
  }
  return pid === undefined ? undefined : { pid, spans };
}

const GC_NAMES = /^(MinorGC|MajorGC|V8\.GC_|BlinkGC\.|ScavengeTask|V8\.GCScavenger|V8\.GCFinalizeMC|V8\.GCIncrementalMarking)/;

/** The long tasks on the bench page's main thread, in time order. */
export function traceLongTasks(events: TraceEvent[], thresholdMs = 50): TracedLongTask[] {
  const generations = generationSpans(events);
  if (!generations) return [];
  const names = threadNames(events);
  const mainTid = [...names].find(([key, name]) => key.startsWith(`${generations.pid}:`) && name === "CrRendererMain")?.[0].split(":")[1];
  if (mainTid === undefined) return [];
  const onMain = events.filter((event) => event.pid === generations.pid && String(event.tid) === mainTid && event.ph === "X" && event.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // A task: a timeline event not inside another one (a timer, a message, an event, a GC, a layout…).
  const tasks: TraceEvent[] = [];
  let coveredUntil = -Infinity;
  for (const event of onMain) {
    if (event.ts < coveredUntil) continue;
    coveredUntil = event.ts + event.dur!;
    if (event.dur! > thresholdMs * 1000) tasks.push(event);
  }
  const gcs = onMain.filter((event) => GC_NAMES.test(event.name));
  return tasks.map((task) => {
    const end = task.ts + task.dur!;
    // Top-level GC events only: nested ones (a phase inside a GC) would count twice.
    const inside = gcs.filter((gc) => gc.ts >= task.ts && gc.ts + gc.dur! <= end);
    const outer = inside.filter((gc) => !inside.some((other) => other !== gc && other.ts <= gc.ts && other.ts + other.dur! >= gc.ts + gc.dur! && other.dur! > gc.dur!));
    // A generation's task: at least half of it inside the generation's measure (a task that starts
    // as one ends and runs on is the bench's own work between generations: logging, terminating workers).
    const span = generations.spans.find(([start, stop]) => Math.min(end, stop) - Math.max(task.ts, start) >= task.dur! / 2);
    return {
      path: span?.[2] ?? null,
      wallMs: task.dur! / 1000,
      cpuMs: task.tdur === undefined ? null : task.tdur / 1000,
      gcMs: outer.reduce((total, gc) => total + gc.dur!, 0) / 1000,
    };
  });
}

/** One line per long task, for the CLI. */
export function formatTracedLongTasks(tasks: TracedLongTask[]): string {
  if (tasks.length === 0) return "trace: no main-thread task over 50 ms during the bench.";
  return [
    "trace: main-thread tasks over 50 ms (wall time; time on a CPU; garbage collection):",
    ...tasks.map((task) => `  ${task.path ? `while ${task.path} was generating` : "between generations"}: ${task.wallMs.toFixed(0)} ms; CPU ${task.cpuMs === null ? "?" : `${task.cpuMs.toFixed(0)} ms`}; GC ${task.gcMs.toFixed(0)} ms`),
  ].join("\n");
}
