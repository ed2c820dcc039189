/**
 * The session's CPU time per streamed `text-delta` (issue 24: work per part
 * O(1)), in Node: an adapter that costs nothing streams `--deltas` deltas
 * through the real agent loop into `createAgentSession`, with a frame (the
 * snapshot built) every `--per-frame` deltas, as 2,000 tokens/s give at 60 Hz.
 * It runs once on a conversation of 10 messages and once on one of 2,000, and
 * prints each one's µs per delta and their ratio: near 1 when a part's cost does
 * not grow with the conversation. Beside it, `sessionReducer` applying each
 * delta at once, as the session did before it held streamed text back.
 * `npm run bench:session [-- --deltas 40000 --per-frame 32 --repeat 7]`.
 */
import type { AgentAdapter } from "../../runtime/session/agent-adapter.js";
import type { AgentMessage } from "../../runtime/session/agent-message.js";
import { createAgentSession } from "../../runtime/session/create-agent-session.js";
import { sessionReducer, type SessionState } from "../../runtime/session/session-reducer.js";
import { memoryStorage } from "../../runtime/test-support/memory-storage.js";

const option = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`--${name} takes a whole number above 0.`);
  return value;
};
const DELTAS = option("deltas", 40_000);
const PER_FRAME = option("per-frame", 32);
const REPEAT = option("repeat", 7);
const SIZES = [10, 2_000];

// In Node the session's frame is a 16 ms timer; here it runs at the next macrotask, where the adapter pauses.
globalThis.requestAnimationFrame = (callback) => setImmediate(() => callback(performance.now())) as unknown as number;
globalThis.cancelAnimationFrame = (id) => clearImmediate(id as unknown as NodeJS.Immediate);

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));
const cpuMicros = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return user + system;
};

function conversation(size: number): AgentMessage[] {
  return Array.from({ length: size }, (_, index): AgentMessage => ({
    id: `m${index}`,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [{ type: "text", text: `Message ${index}: a sentence of about the length a chat turn has.` }],
  }));
}

/** CPU µs per delta of one streamed reply, from the first delta to the last, frames included. */
async function sessionCost(size: number): Promise<number> {
  let cpu = 0;
  let streamed!: () => void;
  const done = new Promise<void>((resolve) => (streamed = resolve));
  const adapter: AgentAdapter = {
    id: "free",
    label: "Free",
    async *run() {
      yield { type: "message-start", messageId: "reply" };
      const start = process.cpuUsage();
      for (let index = 1; index <= DELTAS; index++) {
        yield { type: "text-delta", messageId: "reply", delta: "tok " };
        if (index % PER_FRAME === 0) await macrotask();
      }
      cpu = cpuMicros(start);
      streamed();
      yield { type: "finish", reason: "stop" };
    },
  };
  const session = createAgentSession(adapter, { storageKey: "bench", storage: memoryStorage([["bench", JSON.stringify({ v: 1, messages: conversation(size) })]]) });
  if (session.getSnapshot().messages.length !== size) throw new Error(`restored ${session.getSnapshot().messages.length} of ${size} messages.`);
  session.send("Go.");
  await done;
  await macrotask();
  const reply = session.getSnapshot().messages.at(-1)!.parts[0];
  if (session.getSnapshot().status !== "idle" || reply?.type !== "text" || reply.text.length !== DELTAS * 4) {
    throw new Error("the reply did not arrive whole.");
  }
  session.dispose();
  return cpu / DELTAS;
}

/** CPU µs per delta when `sessionReducer` applies each one at once. */
function reducerCost(size: number): number {
  const reply: AgentMessage = { id: "reply", role: "assistant", parts: [] };
  let state: SessionState = { messages: [...conversation(size), reply], status: "streaming", runId: "run" };
  const start = process.cpuUsage();
  for (let index = 0; index < DELTAS; index++) {
    state = sessionReducer(state, { type: "part", runId: "run", part: { type: "text-delta", messageId: "reply", delta: "tok " } });
  }
  return cpuMicros(start) / DELTAS;
}

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  // Warm the loop's module and the JIT on a short stream first.
  await sessionCost(10);
  const session = new Map(SIZES.map((size) => [size, [] as number[]]));
  const reducer = new Map(SIZES.map((size) => [size, [] as number[]]));
  for (let round = 0; round < REPEAT; round++) {
    for (const size of SIZES) {
      session.get(size)!.push(await sessionCost(size));
      reducer.get(size)!.push(reducerCost(size));
    }
  }
  const format = (micros: number) => `${micros.toFixed(3)} µs`;
  console.log(`${DELTAS} text-deltas a run, a frame every ${PER_FRAME}, median of ${REPEAT} runs (CPU, user + system):`);
  for (const [label, figures] of [
    ["session (adapter → loop → createAgentSession)", session],
    ["sessionReducer at once per delta (before)", reducer],
  ] as const) {
    const [small, large] = SIZES.map((size) => median(figures.get(size)!)) as [number, number];
    console.log(`  ${label}: ${SIZES[0]} messages ${format(small)}/delta, ${SIZES[1]} messages ${format(large)}/delta, ratio ${(large / small).toFixed(2)}`);
  }
}

await main();
