// A shop page with <AgentChat> on the real createLocalAdapter (its default
// engine: the module worker running transformers.js) offering only the
// project's test models, for agent-chat.local.browser.test.ts. The query
// string picks where the models come from: `?slow` for the throttled route
// (a download slow enough to cancel midway). The test reads window.harness.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createLocalAdapter } from "../../../runtime/adapters/local/index.js";
import { testModelEntries } from "../../../runtime/testing/index.js";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import type { AdapterStatus } from "../../../runtime/session/agent-adapter.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";

const calls: string[] = [];
const badge = document.querySelector("#badge")!;
let cart = 0;

// The scripted test model's fixed call is add_to_cart {"sku":"socks"}: here
// it waits for the person's click on the page's own button.
const tools = [
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart. The person confirms with the Add to cart button.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    async execute(input: { sku: string }, { waitForClick }) {
      calls.push(`add_to_cart:${input.sku}`);
      await waitForClick("#add-to-cart", "Click Add to cart to confirm.");
      badge.textContent = String(++cart);
      return `Added ${input.sku}.`;
    },
  }),
];

const slow = new URLSearchParams(location.search).has("slow");
const adapter = createLocalAdapter({
  // Only the project's test models: the Qwen3 catalog is not served here.
  catalog: { models: testModelEntries({ baseUrl: slow ? "/slow-models/test" : "/models/test" }), model: "test-scripted" },
  // Long enough that the tiny model is still writing when Stop is pressed.
  generation: { maxNewTokens: 20_000 },
});

/** Every status the adapter reported, in order (consecutive duplicates dropped). */
const statuses: AdapterStatus[] = [];
const record = () => {
  const status = adapter.status();
  if (JSON.stringify(statuses.at(-1)) !== JSON.stringify(status)) statuses.push(status);
};
adapter.subscribe(record);
record();

createRoot(document.querySelector("#chat")!).render(
  <StrictMode>
    <WebAgentsProvider tools={tools}>
      <AgentChat adapter={adapter} storageKey={false} style={{ height: 640 }} />
    </WebAgentsProvider>
  </StrictMode>,
);

Object.assign(window, {
  harness: {
    calls,
    cart: () => cart,
    statuses: () => statuses,
    models: () => adapter.models(),
    /** The IndexedDB manifests' keys (a model counts as downloaded once its manifest is written). */
    async manifestKeys(): Promise<string[]> {
      const { createStore, keys } = await import("idb-keyval");
      return (await keys(createStore("web-agents-models", "manifests"))).map(String);
    },
    /** Model files in the Cache API, for a repo. */
    async cachedFiles(repo: string): Promise<string[]> {
      const cache = await caches.open("web-agents-models-v1");
      return (await cache.keys()).map((request) => request.url).filter((url) => url.includes(`/${repo}/resolve/`));
    },
  },
});
document.body.dataset.ready = "true";
