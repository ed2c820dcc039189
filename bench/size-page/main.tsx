// The smallest real page with the chat: <AgentChat> on the default shared
// cloud adapter, no engine. `npm run size` measures what it ships.
import { createRoot } from "react-dom/client";
import { AgentChat } from "@webmcp-agents/chat";

createRoot(document.querySelector("#chat")!).render(<AgentChat />);
