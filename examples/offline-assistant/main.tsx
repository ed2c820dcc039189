import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AgentChat, createLocalAdapter, defineWebTool, WebAgentsProvider } from "@webmcp-agents/chat";
import { exampleModels, modelFromAddress, modelsBaseUrl } from "../shared/on-device-models.js";

/**
 * Controlled by the service worker before anything else loads (the engine
 * worker included), and what loaded before it took over handed to it, so the
 * next visit works with the network off.
 */
async function takeOffline(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.register("/offline-assistant/sw.js", { scope: "/" });
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }));
    }
    const urls = [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name)].filter((url) => new URL(url).origin === location.origin && !new URL(url).pathname.startsWith("/models/"));
    const worker = registration.active ?? navigator.serviceWorker.controller;
    worker?.postMessage({ type: "precache", urls });
  } catch (error) {
    console.warn("offline-assistant: no service worker, so the page needs the network to open.", error);
  }
}

await takeOffline();

// Created once the service worker controls the page, so the engine worker it spawns is cached too.
const local = createLocalAdapter({
  label: "On this device",
  catalog: { models: exampleModels(["assistant-scripted"]), ...(modelFromAddress() && { model: modelFromAddress()! }) },
  worker: { baseUrl: modelsBaseUrl },
});

const tools = [
  defineWebTool({
    name: "get_time",
    description: "The current date and time on this device.",
    annotations: { readOnlyHint: true },
    execute: () => new Date().toString(),
  }),
];

createRoot(document.querySelector("#root")!).render(
  <StrictMode>
    <WebAgentsProvider tools={tools}>
      <main>
        <h1>Private assistant</h1>
        <p className="lead">
          It runs on this device only: download the model once (where this device can run several, choose one first), and it keeps working
          with the network off, on the model you chose. Nothing you type leaves this browser.
        </p>
        <AgentChat adapter={local} title="Private assistant" emptyText="Ask me anything. I run on this device."
          placeholder="Ask anything…" storageKey="offline-assistant:chat" style={{ height: 560 }} />
      </main>
    </WebAgentsProvider>
  </StrictMode>,
);
document.body.dataset.ready = "true";
