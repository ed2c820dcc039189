/**
 * The markdown bench page: renders a reply in the chat's own styles, in a
 * 350 px wide chat, whole or streamed in parts (one part per animation frame,
 * as the session store tells streamed text), with the parser, view and
 * bubble styles of today or of before issue #14, and reports what the main thread went
 * through. Driven by run-markdown-bench.ts through `window.runMarkdownBench`.
 */
import { useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { CHAT_STYLES } from "../../../widget/chat-styles.js";
import { MarkdownText } from "../../../widget/markdown-text.js";
import { ShadowHost } from "../../../widget/shadow-host.js";
import { BaselineMarkdownText } from "../baseline-markdown-text.js";
import { codeSpanLine, mixedMarkdown } from "../markdown-bench-texts.js";
import type { MarkdownBenchRequest, MarkdownBenchResult } from "../markdown-bench-types.js";

const WARM_UP = mixedMarkdown(3_000) + "\n\n" + codeSpanLine(1_000);

/** The rules issue #14 changed, as they were (later rules win). */
const STYLES_BEFORE = `
.message { grid-template-columns: none; overflow-wrap: normal; }
pre { white-space: pre-wrap; word-break: break-word; }
`;

let setReply: (reply: { text: string; parser: MarkdownBenchRequest["parser"] }) => void = () => {};

function Chat(): ReactNode {
  const [reply, setState] = useState({ text: "", parser: "after" as MarkdownBenchRequest["parser"] });
  setReply = setState;
  const View = reply.parser === "after" ? MarkdownText : BaselineMarkdownText;
  return (
    <ShadowHost css={reply.parser === "after" ? CHAT_STYLES : CHAT_STYLES + STYLES_BEFORE} style={{ width: "100%", height: "100%" }}>
      <div className="root">
        <div className="log">
          <div className="message assistant" data-role="assistant">
            <View text={reply.text} />
          </div>
        </div>
      </div>
    </ShadowHost>
  );
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function runMarkdownBench({ text, parts, parser, deadlineMs }: MarkdownBenchRequest): Promise<MarkdownBenchResult> {
  // Warm up: the page has rendered some markdown before, as a chat has.
  flushSync(() => setReply({ text: WARM_UP, parser }));
  await nextFrame();
  flushSync(() => setReply({ text: "", parser }));
  await nextFrame();
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => longTasks.push(entry.duration)));
  observer.observe({ type: "longtask", buffered: false });
  const host = document.querySelector("#chat [data-web-agents-ui]")!;
  const started = performance.now();
  let longestUpdateMs = 0;
  let longestRenderMs = 0;
  let workMs = 0;
  const updates: number[] = [];
  let partsDone = 0;
  for (let part = 1; part <= parts; part++) {
    const end = Math.round((text.length * part) / parts);
    const updateStarted = performance.now();
    // A rendered update and the layout it causes, as one task.
    flushSync(() => setReply({ text: text.slice(0, end), parser }));
    const rendered = performance.now();
    host.shadowRoot!.querySelector(".log")!.getBoundingClientRect();
    const updateMs = performance.now() - updateStarted;
    workMs += updateMs;
    updates.push(Math.round(updateMs));
    longestUpdateMs = Math.max(longestUpdateMs, updateMs);
    longestRenderMs = Math.max(longestRenderMs, rendered - updateStarted);
    partsDone = part;
    await nextFrame();
    if (performance.now() - started > deadlineMs) break;
  }
  // Today's view shows a text far ahead of it over several frames (aria-busy meanwhile).
  while (host.shadowRoot!.querySelector("[aria-busy=true]")) await nextFrame();
  const totalMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 100));
  longTasks.push(...observer.takeRecords().map((entry) => entry.duration));
  observer.disconnect();
  const log = host.shadowRoot!.querySelector(".log")!;
  const message = host.shadowRoot!.querySelector(".message")!;
  return {
    partsDone,
    totalMs,
    longestUpdateMs,
    longestRenderMs,
    workMs,
    updates,
    longTasks: longTasks.length,
    longestTaskMs: longTasks.length ? Math.max(...longTasks) : 0,
    longTasksOver50Ms: longTasks.filter((duration) => duration > 50).length,
    logWidth: log.clientWidth,
    logScrollWidth: log.scrollWidth,
    messageWidth: message.getBoundingClientRect().width,
    widestCodeBlock: Math.max(0, ...[...host.shadowRoot!.querySelectorAll("pre")].map((pre) => pre.getBoundingClientRect().width)),
  };
}

createRoot(document.querySelector("#chat")!).render(<Chat />);
Object.assign(window, { runMarkdownBench });
document.body.dataset.ready = "true";
