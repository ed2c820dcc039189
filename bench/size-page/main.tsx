// The first render of a real page with the chat: <AgentChat> offering the
// on-device and the cloud adapter, and a page tool registered through
// WebAgentsProvider and useWebTool. The WebMCP polyfill comes in as the page
// loads it: the core installs it on first use where the browser has no
// document.modelContext. `npm run size` measures what this ships.
import { createRoot } from "react-dom/client";
import { AgentChat, createCloudAdapter, createLocalAdapter, defineWebTool, useWebTool, WebAgentsProvider } from "@webmcp-agents/chat";

const getCart = defineWebTool({
  name: "get_cart",
  description: "Read the items in the cart.",
  annotations: { readOnlyHint: true },
  execute: () => ({ items: [] }),
});

const adapters = [createLocalAdapter(), createCloudAdapter()];

function Page() {
  useWebTool({
    name: "add_to_cart",
    description: "Add the product on this page to the cart.",
    inputSchema: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } } },
    execute: ({ quantity }) => ({ added: Number(quantity ?? 1) }),
  });
  return <AgentChat adapters={adapters} />;
}

createRoot(document.querySelector("#chat")!).render(
  <WebAgentsProvider tools={[getCart]}>
    <Page />
  </WebAgentsProvider>,
);
