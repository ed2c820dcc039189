// A site's page that uses the BUILT package (dist/), as an npm user would:
// the on-device adapter's worker ships as dist/assets/engine-worker-*.js and
// the site's bundler (Vite here) resolves its dependencies.
import { createAgentSession, createLocalAdapter, defineWebTool, registerWebTool } from "@webmcp-agents/chat";

const badge = document.querySelector("#badge");
await registerWebTool(
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    execute: ({ sku }) => {
      badge.textContent = String(Number(badge.textContent) + 1);
      return `Added ${sku}.`;
    },
  }),
);

window.runConsumer = async () => {
  const adapter = createLocalAdapter({ models: [], testModels: { baseUrl: "/models/test" }, model: "test-scripted", autoLoad: false });
  await adapter.prepare();
  const session = createAgentSession(adapter, { storageKey: false });
  await new Promise((resolve) => {
    session.subscribe(() => {
      if (session.getSnapshot().status !== "streaming") resolve();
    });
    session.send("Add socks");
  });
  const { messages, status, error } = session.getSnapshot();
  return { status, error, state: adapter.status().state, messages };
};
document.body.dataset.ready = "true";
