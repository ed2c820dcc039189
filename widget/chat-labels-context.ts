import { createContext, useContext } from "react";
import { DEFAULT_CHAT_LABELS, type ChatLabels } from "./chat-labels.js";

/** The labels of the chat a part renders in: `<AgentChat>` provides its merged `labels`; outside one, the defaults. */
export const ChatLabelsContext = createContext<ChatLabels>(DEFAULT_CHAT_LABELS);

/** The words of the chat this part renders in. */
export function useChatLabels(): ChatLabels {
  return useContext(ChatLabelsContext);
}
