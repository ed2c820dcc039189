import { describe, expect, it } from "vitest";
import { formatTracedLongTasks, traceLongTasks, type TraceEvent } from "./trace-long-tasks.js";

const PAGE = 10;
const MAIN = 1;
const meta = (pid: number, tid: number, name: string): TraceEvent => ({ name: "thread_name", ph: "M", ts: 0, pid, tid, args: { name } });
const task = (name: string, ts: number, durMs: number, tdurMs: number, tid = MAIN, pid = PAGE): TraceEvent => ({ name, cat: "devtools.timeline", ph: "X", ts, dur: durMs * 1000, tdur: tdurMs * 1000, pid, tid });
const measure = (path: string, start: number, end: number, id: string): TraceEvent[] => [
  { name: `bench:${path}`, cat: "blink.user_timing", ph: "b", ts: start, pid: PAGE, tid: MAIN, id2: { local: id } },
  { name: `bench:${path}`, cat: "blink.user_timing", ph: "e", ts: end, pid: PAGE, tid: MAIN, id2: { local: id } },
];

describe("traceLongTasks", () => {
  const events: TraceEvent[] = [
    meta(PAGE, MAIN, "CrRendererMain"),
    meta(PAGE, 2, "DedicatedWorker thread"),
    meta(20, MAIN, "CrRendererMain"),
    ...measure("runtime", 0, 1_000_000, "0x1"),
    ...measure("ort", 2_000_000, 3_000_000, "0x2"),
    // In the runtime generation: a 70 ms message task with 12 ms on the CPU, a 20 ms GC inside it.
    task("EventDispatch", 100_000, 70, 12),
    { ...task("MajorGC", 120_000, 20, 5), cat: "devtools.timeline,v8" },
    { ...task("V8.GC_MARK_COMPACTOR", 121_000, 18, 5), cat: "devtools.timeline,disabled-by-default-v8.gc" },
    // Short tasks, a long one on a worker, and one on another page: none counts.
    task("TimerFire", 300_000, 10, 10),
    task("FunctionCall", 400_000, 200, 200, 2),
    task("TimerFire", 400_000, 200, 200, MAIN, 20),
    // Between generations (one starts as the runtime generation ends), and in the ort one.
    task("TimerFire", 999_000, 300, 30),
    task("TimerFire", 1_500_000, 55, 54),
    task("EventDispatch", 2_100_000, 90, 9),
  ];

  it("finds the page's main-thread tasks over 50 ms, with their CPU time, GC and generation", () => {
    expect(traceLongTasks(events)).toEqual([
      { path: "runtime", wallMs: 70, cpuMs: 12, gcMs: 20 },
      { path: null, wallMs: 300, cpuMs: 30, gcMs: 0 },
      { path: null, wallMs: 55, cpuMs: 54, gcMs: 0 },
      { path: "ort", wallMs: 90, cpuMs: 9, gcMs: 0 },
    ]);
  });

  it("finds nothing in a trace without the bench's measures", () => {
    expect(traceLongTasks(events.filter((event) => !event.name.startsWith("bench:")))).toEqual([]);
  });

  it("prints a line per task", () => {
    expect(formatTracedLongTasks(traceLongTasks(events))).toBe(
      [
        "trace: main-thread tasks over 50 ms (wall time; time on a CPU; garbage collection):",
        "  while runtime was generating: 70 ms; CPU 12 ms; GC 20 ms",
        "  between generations: 300 ms; CPU 30 ms; GC 0 ms",
        "  between generations: 55 ms; CPU 54 ms; GC 0 ms",
        "  while ort was generating: 90 ms; CPU 9 ms; GC 0 ms",
      ].join("\n"),
    );
    expect(formatTracedLongTasks([])).toMatch(/no main-thread task over 50 ms/);
  });
});
