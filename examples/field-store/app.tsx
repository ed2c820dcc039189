import { useState, useSyncExternalStore, type ReactNode } from "react";
import { AgentChat, AgentCursor, describeToolState, goToControl, toolTitle, useParkedTarget, useWebAgent, type AgentAdapter, type WebAgentStep } from "@webmcp-agents/chat";
import { builtIn, cloud, local } from "./adapters.js";
import { chatLanguage } from "./chat-language.js";
import { shopper } from "./agents.js";
import { confirmTool } from "./confirm-tool.js";
import { CartPage } from "./pages/cart-page.js";
import { HomePage } from "./pages/home-page.js";
import { OrdersPage } from "./pages/orders-page.js";
import { ProductPage } from "./pages/product-page.js";
import { cartCount } from "./store-state.js";
import { useCart, useOrders, useRoute } from "./use-store.js";

const WITH_BUILT_IN = builtIn ? [builtIn, local, cloud] : [local, cloud];
const WITHOUT_BUILT_IN = [local, cloud];
const noSubscription = () => () => {};
/** The chat's words: English, or `?lang=de` / `?lang=he`. */
const CHAT_LABELS = chatLanguage();

/** The chat's adapters: the browser's own model first, while the browser says it can run it. */
function useAdapters() {
  const offered = useSyncExternalStore(builtIn?.subscribe ?? noSubscription, () => builtIn !== undefined && builtIn.status().state !== "unavailable");
  return offered ? WITH_BUILT_IN : WITHOUT_BUILT_IN;
}

/** Where the chat keeps the conversation, and under `<key>:adapter` the adapter the person chose. */
const CHAT_STORAGE_KEY = "field-store:chat";

/** The adapter the person chose in the chat, remembered on an earlier visit: read when rendering, for the Reorder's label. */
function chosenIn(adapters: readonly AgentAdapter[]): AgentAdapter | undefined {
  let id: string | null = null;
  try {
    id = localStorage.getItem(`${CHAT_STORAGE_KEY}:adapter`);
  } catch {
    // Storage blocked: no choice to read.
  }
  return adapters.find((adapter) => adapter.id === id);
}

/**
 * Before the person has chosen in the chat's switcher, the Reorder button
 * runs in the browser when its model is ready, on the device when the model
 * there is ready or loading from this device (downloaded on an earlier
 * visit: the run waits for the load), else through /api/chat.
 */
function useReadyAdapter() {
  const builtInReady = useSyncExternalStore(builtIn?.subscribe ?? noSubscription, () => builtIn?.status().state === "ready");
  const localOnDevice = useSyncExternalStore(local.subscribe, () => {
    const status = local.status();
    return status.state === "ready" || (status.state === "loading" && status.progress !== undefined);
  });
  return builtInReady && builtIn ? builtIn : localOnDevice ? local : cloud;
}

/** One step of the Reorder run, in words: "Go to: Done", "Place order: Waiting for you to click Place order". */
function Step({ step }: { step: WebAgentStep }): ReactNode {
  const target = useParkedTarget(step.id, step.tool, step.state === "awaiting-confirmation");
  return (
    <li data-state={step.state} data-tool={step.tool}>
      {toolTitle(step.tool)}
      {step.agent && <span className="muted"> ({step.agent} agent)</span>}: {describeToolState(step.state, target)}
      {target && (
        <>
          {" "}
          <button type="button" className="link" onClick={() => goToControl(target, document.querySelector<HTMLElement>("#reorder-button"))}>
            Go there
          </button>
        </>
      )}
      {step.error && <span className="muted"> {step.error}</span>}
    </li>
  );
}

function Reorder({ adapters }: { adapters: readonly AgentAdapter[] }): ReactNode {
  const orders = useOrders();
  const ready = useReadyAdapter();
  const adapter = chosenIn(adapters) ?? ready;
  // On the adapter the person chose in the chat (the model on this device loads if it must), open or not.
  // place_order confirms itself (its own Place order click): the run lets it through to that.
  const run = useWebAgent(shopper, { adapter: ready, adapters, storageKey: CHAT_STORAGE_KEY, confirmTool });
  if (orders.length === 0 && run.status === "idle") return null;
  return (
    <section id="reorder" aria-label="Reorder" data-status={run.status}>
      <button
        type="button"
        id="reorder-button"
        // aria-disabled, not disabled: a disabled button drops the keyboard focus of the person who pressed it.
        aria-disabled={run.status === "running"}
        onClick={() => {
          if (run.status !== "running") void run.invoke("Reorder my last purchase and stop at checkout.");
        }}
      >
        Reorder my last purchase
      </button>
      {run.status === "running" && (
        <button type="button" onClick={run.stop}>
          Stop
        </button>
      )}
      <span className="muted"> runs the shopper agent with no chat open ({adapter.label})</span>
      {run.steps.length > 0 && (
        <ol className="steps">
          {run.steps.map((step) => (
            <Step key={step.id} step={step} />
          ))}
        </ol>
      )}
      {/* The run's cursor, with or without the chat open: it parks on the control a call waits for. */}
      <AgentCursor follows={run.follows} />
      {run.status === "done" && <p className="answer">{run.text}</p>}
      {run.status === "error" && <p role="alert">{run.error?.message}</p>}
    </section>
  );
}

export function App(): ReactNode {
  const route = useRoute();
  const cart = useCart();
  const [chatOpen, setChatOpen] = useState(false);
  const adapters = useAdapters();
  return (
    <div className={chatOpen ? "layout chat-open" : "layout"}>
      <header>
        <a href="#/" data-nav="home" className="brand">
          Field Store
        </a>
        <nav>
          <a href="#/" data-nav="home" aria-current={route.page === "home" ? "page" : undefined}>
            Shop
          </a>
          <a href="#/cart" data-nav="cart" aria-current={route.page === "cart" ? "page" : undefined}>
            Cart <span id="cart-badge" className="badge" aria-label="items in cart">{cartCount(cart)}</span>
          </a>
          <a href="#/orders" data-nav="orders" aria-current={route.page === "orders" ? "page" : undefined}>
            Orders
          </a>
        </nav>
        <button type="button" id="open-chat" aria-expanded={chatOpen} onClick={() => setChatOpen(!chatOpen)}>
          {chatOpen ? "Close assistant" : "Ask the assistant"}
        </button>
      </header>
      <main>
        {route.page === "home" && <HomePage />}
        {route.page === "product" && <ProductPage productId={route.productId} key={route.productId} />}
        {route.page === "cart" && <CartPage />}
        {route.page === "orders" && <OrdersPage />}
        <Reorder adapters={adapters} />
      </main>
      {chatOpen && (
        <aside id="chat" aria-label="Assistant">
          <AgentChat
            adapters={adapters}
            agent={shopper}
            labels={CHAT_LABELS}
            storageKey={CHAT_STORAGE_KEY}
            confirmTool={confirmTool}
            autoFocus
            style={{ height: "100%" }}
          />
        </aside>
      )}
    </div>
  );
}
