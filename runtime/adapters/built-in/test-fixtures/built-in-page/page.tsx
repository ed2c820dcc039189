// createBuiltInAdapter over a double of the Prompt API, in Chromium (no
// built-in model runs here). window.builtInPage.mainThread(kind, size)
// streams one long reply through the adapter alone, with the bench's
// long-task recorder on, and times the page's handling of each chunk: the
// double waits one task before each chunk, so the wait between a chunk and
// the next is what the page did with it. The chat below runs on a device the
// browser's model does not qualify for, and says so.
import { createRoot } from "react-dom/client";
import { longTaskRecorder } from "../../../../../bench/long-task-recorder.js";
import { AgentChat } from "../../../../../widget/agent-chat.js";
import { createLanguageModelDouble } from "../../../../test-support/language-model-double/index.js";
import { createBuiltInAdapter } from "../../create-built-in-adapter.js";

/** The double's wait before each chunk: one task, timed from the moment it is asked for (right after the last chunk went out). */
function timedTask(gaps: number[]): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      const asked = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        gaps.push(performance.now() - asked);
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(undefined);
    });
}

async function mainThread(kind: "answer" | "calls", size: number) {
  const gaps: number[] = [];
  const long = 'Socks, boots and tents; "quoted" \\ and ünïcode 🧦. '.repeat(Math.ceil(size / 40)).slice(0, size);
  const tool = { name: "note", description: "Keep a note.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
  const replies = kind === "answer" ? [JSON.stringify({ answer: long })] : [JSON.stringify({ calls: [{ tool: "note", arguments: { text: long } }] }), JSON.stringify({ answer: "Noted." })];
  const { LanguageModel } = createLanguageModelDouble({ replies, chunkSize: 8, contextWindow: 1_000_000, nextChunk: timedTask(gaps) });
  const adapter = createBuiltInAdapter({ languageModel: LanguageModel });
  await adapter.prepare();
  const recorder = longTaskRecorder();
  recorder.start();
  let text = "";
  const started = performance.now();
  const run = adapter.run({
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Go" }] }],
    tools: [tool],
    signal: new AbortController().signal,
    callTool: async () => ({ content: [{ type: "text", text: "Kept." }] }),
  });
  for await (const part of run) if (part.type === "text-delta") text += part.delta;
  const record = recorder.stop();
  const sorted = [...gaps].sort((a, b) => a - b);
  // The sum of a window's chunks less its slowest tenth: a page descheduled for
  // a moment by a busy machine moves a few chunks, a re-scan moves every one.
  const trimmedSum = (values: number[]) =>
    [...values]
      .sort((a, b) => a - b)
      .slice(0, Math.ceil(values.length * 0.9))
      .reduce((total, value) => total + value, 0);
  return {
    // The first and the last 500 chunks: equal costs say the reader keeps its place (no re-scan of what came before).
    earlyChunksMs: trimmedSum(gaps.slice(0, 500)),
    lateChunksMs: trimmedSum(gaps.slice(-500)),
    ...record,
    chunks: gaps.length,
    medianChunkMs: sorted[Math.floor(sorted.length / 2)]!,
    p99ChunkMs: sorted[Math.floor(sorted.length * 0.99)]!,
    maxChunkMs: sorted.at(-1)!,
    totalMs: performance.now() - started,
    textOk: text === (kind === "answer" ? long : "Noted."),
  };
}

const { LanguageModel: unqualified } = createLanguageModelDouble({ availability: "unavailable" });
const adapter = createBuiltInAdapter({ languageModel: unqualified });
createRoot(document.querySelector("#root")!).render(<AgentChat adapter={adapter} storageKey={false} cursor={false} style={{ height: 400 }} />);

Object.assign(window, { builtInPage: { mainThread } });
document.body.dataset.ready = "true";
