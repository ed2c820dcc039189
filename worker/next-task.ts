import { RUNS_IN_NODE } from "./runs-in-node.js";

let taskChannel: { port: MessagePort; waiting: (() => void)[] } | undefined;

/**
 * Resolves in a new task, not a microtask. ONNX Runtime's WASM run resolves
 * through microtasks only, so a generation loop never yields to the worker's
 * event loop: a `cancel` message would wait until the whole generation ended.
 * Awaiting this before every forward pass lets it land between tokens.
 * (One MessageChannel kept for it, not setTimeout: no 4 ms clamp, and no new
 * channel per token. In Node, `setImmediate`: an open port would keep Node alive.)
 */
export function nextTask(): Promise<void> {
  if (typeof setImmediate === "function" && RUNS_IN_NODE) return new Promise((resolve) => setImmediate(resolve));
  if (!taskChannel) {
    const { port1, port2 } = new MessageChannel();
    const channel = { port: port2, waiting: [] as (() => void)[] };
    port1.onmessage = () => channel.waiting.shift()?.();
    taskChannel = channel;
  }
  const channel = taskChannel;
  return new Promise((resolve) => {
    channel.waiting.push(resolve);
    channel.port.postMessage(null);
  });
}
