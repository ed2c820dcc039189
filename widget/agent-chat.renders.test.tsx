// @vitest-environment happy-dom
import { Profiler, StrictMode, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLocalAdapter } from "../runtime/adapters/local/create-local-adapter.js";
import { EngineHostDouble } from "../runtime/adapters/local/test-fixtures/engine-host-double.js";
import { installHappyDomWebMCP, resetWebMCP } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import { AgentChat } from "./agent-chat.js";
import { chatRoot } from "./test-fixtures/chat-queries.js";

// These tests count React's own commits, so React schedules work as it does
// in a page: outside act(), which would batch everything into one commit.
const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

let container: HTMLElement;
let root: Root;
beforeEach(() => {
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
  installHappyDomWebMCP();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  root.unmount();
  container.remove();
  resetWebMCP();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Called at each React commit of a tree rendered under a Profiler with `onRender={onCommit}`: the DOM holds it by then. */
const commitListeners = new Set<() => void>();
const onCommit = () => [...commitListeners].forEach((listener) => listener());
/** Resolves now if `check` holds, else at the first commit after which it does; `timeoutMs` is a ceiling only. */
function waitUntil(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const listener = () => {
      if (!check()) return;
      clearTimeout(timer);
      commitListeners.delete(listener);
      resolve();
    };
    const timer = setTimeout(() => {
      commitListeners.delete(listener);
      reject(new Error(`No commit showed ${what}.`));
    }, timeoutMs);
    commitListeners.add(listener);
  });
}
const shadow = () => container.querySelector("[data-web-agents-ui]")?.shadowRoot ?? undefined;
const shadowText = () => shadow()?.textContent ?? "";

/**
 * Animation frames on demand: `requestAnimationFrame` queues, `frame()` runs
 * the queue, as the browser does once per display refresh.
 */
function stubFrames() {
  let queue = new Map<number, FrameRequestCallback>();
  let next = 1;
  let count = 0;
  vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
    queue.set(next, callback);
    return next++;
  });
  vi.stubGlobal("cancelAnimationFrame", (id: number) => queue.delete(id));
  return {
    frame() {
      const due = queue;
      queue = new Map();
      count++;
      for (const callback of due.values()) callback(performance.now());
    },
    get count() {
      return count;
    },
  };
}

describe("<AgentChat> renders", () => {
  it("commits the streamed text at most once per animation frame, and the finish at once", async () => {
    const frames = stubFrames();
    const TOKENS = 200;
    // One token per macrotask, a frame every 10 tokens: a fast model on a 60 Hz screen.
    const adapter: AgentAdapter = {
      id: "stream",
      label: "Stream",
      async *run(): AsyncGenerator<AgentStreamPart> {
        yield { type: "message-start", messageId: "m" };
        for (let index = 0; index < TOKENS; index++) {
          await sleep(0);
          yield { type: "text-delta", messageId: "m", delta: `t${index} ` };
          if (index % 10 === 9) frames.frame();
        }
        yield { type: "text-delta", messageId: "m", delta: "end." };
        yield { type: "finish", reason: "stop" };
      },
    };
    let commits = 0;
    let counting = false;
    const onRender = () => {
      if (counting) commits++;
      onCommit();
    };
    root.render(
      <Profiler id="chat" onRender={onRender}>
        <AgentChat adapter={adapter} storageKey={false} cursor={false} />
      </Profiler>,
    );
    await waitUntil(() => shadow()?.querySelector("textarea") != null, "the chat mounted");
    const field = chatRoot(container).querySelector("textarea")!;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")!.set!.call(field, "go");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    const send = () => [...chatRoot(container).querySelectorAll("button")].find((button) => button.textContent?.trim() === "Send");
    // Send is enabled by the commit of the typed text: count only the commits after it.
    await waitUntil(() => send()?.disabled === false, "Send enabled by the typed text");
    counting = true;
    send()!.click();
    // The last token and the finish arrive between frames: the finish shows them without waiting for one.
    await waitUntil(() => shadowText().includes("t199 end."), "the whole reply shows");
    counting = false;
    const perToken = commits / TOKENS;
    console.info(`[renders] ${commits} commits of <AgentChat> for ${TOKENS} tokens over ${frames.count} frames (${perToken.toFixed(3)} per token)`);
    expect(commits).toBeLessThanOrEqual(frames.count + 6);
    expect(commits).toBeLessThan(TOKENS / 5);
  });

  it("starts the engine worker once under StrictMode, and never while rendering", async () => {
    let started = 0;
    const local = createLocalAdapter({
      worker: { host: async () => {
        started++;
        return new EngineHostDouble();
      } },
    });
    const chat = (): ReactNode => <AgentChat adapter={local} storageKey={false} cursor={false} />;
    renderToString(chat());
    expect(started, "a server render starts nothing").toBe(0);
    root.render(
      <Profiler id="chat" onRender={onCommit}>
        <StrictMode>{chat()}</StrictMode>
      </Profiler>,
    );
    await waitUntil(() => /Download/.test(shadowText()), "the download card shows");
    expect(started).toBe(1);
  });
});
