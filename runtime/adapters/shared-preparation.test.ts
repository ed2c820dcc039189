import { describe, expect, it } from "vitest";
import { SharedPreparation } from "./shared-preparation.js";

/** A preparation the test settles by hand, recording the signal it was started with. */
function task() {
  const started: AbortSignal[] = [];
  let settle!: (error?: unknown) => void;
  const start = (signal: AbortSignal) => {
    started.push(signal);
    return new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  };
  return { start, started, settle: (error?: unknown) => settle(error) };
}

describe("SharedPreparation", () => {
  it("starts one preparation for concurrent joins of one key, and every caller sees it settle", async () => {
    const preparation = new SharedPreparation();
    const { start, started, settle } = task();
    const joins = [preparation.join("a", start), preparation.join("a", start, new AbortController().signal)];
    expect([started.length, preparation.key, preparation.running]).toEqual([1, "a", true]);
    settle();
    await Promise.all(joins);
    expect(preparation.running).toBe(false);
  });

  it("rejects every caller with the preparation's error", async () => {
    const preparation = new SharedPreparation();
    const { start, settle } = task();
    const joins = [preparation.join("a", start), preparation.join("a", start)];
    settle(new Error("The model file is damaged."));
    for (const join of joins) await expect(join).rejects.toThrow("The model file is damaged.");
  });

  it("ends one caller's wait when its signal aborts, and aborts the preparation only once every caller with a signal has left", async () => {
    const preparation = new SharedPreparation();
    const { start, started, settle } = task();
    const [first, second] = [new AbortController(), new AbortController()];
    const joins = [preparation.join("a", start, first.signal), preparation.join("a", start, second.signal)];
    first.abort();
    await expect(joins[0]).rejects.toMatchObject({ name: "AbortError" });
    expect(started[0]!.aborted).toBe(false);
    second.abort();
    await expect(joins[1]).rejects.toMatchObject({ name: "AbortError" });
    expect(started[0]!.aborted).toBe(true);
    settle();
  });

  it("starts another preparation for another key", async () => {
    const preparation = new SharedPreparation();
    const [a, b] = [task(), task()];
    const joins = [preparation.join("a", a.start), preparation.join("b", b.start)];
    expect([a.started.length, b.started.length, preparation.key]).toEqual([1, 1, "b"]);
    a.settle();
    b.settle();
    await Promise.all(joins);
  });
});
