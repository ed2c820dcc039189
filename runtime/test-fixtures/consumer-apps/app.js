// A site's code, as a new user writes it against the INSTALLED package
// (`npm install @webmcp-agents/chat` from the packed tarball): its own model
// files on its own origin, declared with defineModel and pinned by sha256
// (model.json is written by the test from the built scripted test model).
// The same file is built by Vite and by webpack 5, with no bundler settings.
import { createAgentSession, createLocalAdapter, defineModel, defineWebTool, registerWebTool } from "@webmcp-agents/chat";
import definition from "./model.json";
import qwen35Definition from "./model-qwen35.json";
import shapedDefinition from "./model-shaped.json";

const badge = document.querySelector("#badge");
await registerWebTool(
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 1 } }, required: ["sku"] },
    execute: ({ sku }) => {
      badge.textContent = String(Number(badge.textContent) + 1);
      return `Added ${sku}.`;
    },
  }),
);

const query = new URLSearchParams(location.search);
// ?threads=2 asks for ONNX Runtime's WASM threads (they run where the page is cross-origin isolated).
const threads = Number(query.get("threads")) || undefined;
// ?maxNewTokens=32 caps each generation (the engine's default is 1,024 tokens).
const maxNewTokens = Number(query.get("maxNewTokens")) || undefined;
// ?model=qwen35 uses the site's Qwen3.5-format model (XML tool calls) instead; ?model=shaped a
// Qwen3.5-shaped one (random weights: it answers nonsense, through the same loop).
const models = { qwen35: qwen35Definition, shaped: shapedDefinition };
const model = models[query.get("model")] ?? definition;
const adapter = createLocalAdapter({
  catalog: { models: [defineModel(model)], autoLoad: false },
  ...(threads && { worker: { threads } }),
  ...(maxNewTokens && { generation: { maxNewTokens } }),
});

window.runConsumer = async () => {
  await adapter.prepare();
  const session = createAgentSession(adapter, { storageKey: false });
  await new Promise((resolve) => {
    session.subscribe(() => {
      if (session.getSnapshot().status !== "streaming") resolve();
    });
    session.send("Add socks");
  });
  const { messages, status, error, usage } = session.getSnapshot();
  return { status, error, usage, state: adapter.status().state, messages };
};
document.body.dataset.ready = "true";
