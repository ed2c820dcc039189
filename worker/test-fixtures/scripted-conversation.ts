import { DEFAULT_SCRIPTED_TOOL_CALL } from "../../models/test-models/index.js";
import type { AgentMessage } from "../../runtime/session/agent-message.js";

/** The person's first message in the scripted model's two-step tool loop. */
export const BUY_SOCKS: AgentMessage = { id: "u", role: "user", parts: [{ type: "text", text: "Buy socks" }] };

/** The assistant's turn after the scripted model's call came back `{"ok":true}`: the loop's second step reads it. */
export const scriptedCallDone = (): AgentMessage => ({
  id: "a",
  role: "assistant",
  parts: [
    {
      type: "tool",
      id: "c1",
      name: DEFAULT_SCRIPTED_TOOL_CALL.name,
      input: DEFAULT_SCRIPTED_TOOL_CALL.arguments,
      state: "done",
      output: { content: [{ type: "text", text: '{"ok":true}' }] },
    },
  ],
});
