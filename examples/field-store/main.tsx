import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { WebAgentsProvider } from "@webmcp-agents/chat";
import { App } from "./app.js";
import { catalogTools } from "./tools.js";

createRoot(document.querySelector("#root")!).render(
  <StrictMode>
    <WebAgentsProvider tools={catalogTools}>
      <App />
    </WebAgentsProvider>
  </StrictMode>,
);
document.body.dataset.ready = "true";
