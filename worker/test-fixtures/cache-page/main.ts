// The real module worker and engine client, driven by worker/model-cache.browser.test.ts.
import { createEngineClient } from "../../engine-client.js";
import { probeCapabilities } from "../../capability-probe.js";
import type { EngineEvent, StepRequest } from "../../protocol.js";

const client = createEngineClient({
  spawn: () => new Worker(new URL("../../engine-worker.ts", import.meta.url), { type: "module" }),
});

/** One generation's events, and its text and tool calls as the worker read them with the model's format. */
async function generate(request: StepRequest): Promise<{ text: string; calls: { name: string; input: unknown }[]; events: EngineEvent[] }> {
  const events: EngineEvent[] = [];
  await client.generate(request, (event) => events.push(event));
  return {
    text: events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : [])).join(""),
    calls: events.flatMap((event) => (event.type === "tool-call" ? [{ name: event.name, input: event.input }] : [])),
    events,
  };
}

(window as unknown as { harness: unknown }).harness = { client, generate, probeCapabilities };
document.body.dataset.ready = "true";
