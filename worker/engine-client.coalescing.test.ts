import { describe, expect, it } from "vitest";
import { createEngineClient, type WorkerLike } from "./engine-client.js";
import { createEngineHost } from "./engine-host.js";
import { exposeEngineHost } from "./expose-engine-host.js";
import type { ModelEngine } from "./model-engine.js";
import { nextTask } from "./next-task.js";
import type { EngineEvent, StepRequest } from "./protocol.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";

// The worker boundary in one thread: the real host, expose and client over a MessageChannel,
// with an engine that writes tokens one a task, as TransformersEngine does.
function connect(engine: ModelEngine, onPost: () => void = () => {}) {
  const spawn = (): WorkerLike => {
    const { port1, port2 } = new MessageChannel();
    const host = createEngineHost({ engines: { transformers: () => engine }, store: { cacheStatus: async () => ({ cached: true }), download: async () => {}, deleteModel: async () => {} }, requireCached: false });
    exposeEngineHost(host, port2 as never);
    const post = port1.postMessage.bind(port1);
    // What the client posts on the worker's own endpoint (comlink's calls).
    port1.postMessage = ((...args: Parameters<MessagePort["postMessage"]>) => (onPost(), post(...(args as [unknown])))) as MessagePort["postMessage"];
    return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as WorkerLike;
  };
  return createEngineClient({ spawn });
}

const request: StepRequest = { id: "g", model: testModelSource("zero"), conversationId: "c", conversation: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }], tools: [] };

describe("a generation's events across the worker boundary", () => {
  it("sends the first token before the engine writes the second, then a burst in few messages, in order", async () => {
    const TOKENS = 600;
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    const engine: ModelEngine = {
      load: async () => {},
      async generate(_request, onEvent) {
        onEvent({ type: "text", text: "t0 " });
        // Held back, it would never arrive: the engine waits for the page to have it.
        await arrived;
        for (let index = 1; index < TOKENS; index++) {
          await nextTask();
          onEvent({ type: "text", text: `t${index} ` });
        }
        onEvent({ type: "finish", reason: "stop" });
      },
    };
    const client = connect(engine);
    const events: EngineEvent[] = [];
    await client.generate(request, (event) => {
      if (events.length === 0) firstArrived();
      events.push(event);
    });
    client.terminate();
    const deltas = events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : []));
    expect(deltas[0]).toBe("t0 ");
    expect(deltas.join("")).toBe(Array.from({ length: TOKENS }, (_, index) => `t${index} `).join(""));
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop" });
    // Tokens a task apart arrive joined: far fewer events than tokens.
    expect(deltas.length).toBeLessThan(TOKENS / 10);
  });

  it("sends each request as one message on the port set up with the worker, never a comlink call", async () => {
    let posts = 0;
    const engine: ModelEngine = {
      load: async () => {},
      async generate(_request, onEvent) {
        onEvent({ type: "text", text: "ok" });
        onEvent({ type: "finish", reason: "stop" });
      },
    };
    const client = connect(engine, () => posts++);
    await client.probe();
    const afterConnect = posts;
    const events: EngineEvent[] = [];
    await client.generate(request, (event) => events.push(event));
    await client.generate({ ...request, id: "g2" }, (event) => events.push(event));
    expect(posts).toBe(afterConnect);
    client.terminate();
    expect(events).toEqual([{ type: "text-delta", delta: "ok" }, { type: "finish", reason: "stop" }, { type: "text-delta", delta: "ok" }, { type: "finish", reason: "stop" }]);
  });

  it("rejects a failed generation with the host's error, rebuilt on the page", async () => {
    const engine: ModelEngine = {
      load: async () => {},
      generate: async () => {
        throw new Error("the engine broke");
      },
    };
    const client = connect(engine);
    await expect(client.generate(request, () => {})).rejects.toMatchObject({ code: "generation_failed", message: expect.stringContaining("the engine broke") });
    client.terminate();
  });
});
