import type { ReactNode } from "react";
import { afterEach, beforeEach, vi } from "vitest";
import type { AgentStreamPart } from "../../runtime/session/agent-stream-part.js";
import { chatRoot } from "./chat-queries.js";
import { mount, type Mounted } from "./mount.js";

/**
 * A fresh mount before each test of the file that calls it, cleaned up after
 * (mocks and stubbed globals restored too), with the chat's queries on it:
 * what the `<AgentChat>` test files start with.
 */
export function useMountedChat() {
  let mounted: Mounted;
  beforeEach(() => {
    mounted = mount();
  });
  afterEach(() => {
    mounted.cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
  const root = () => chatRoot(mounted.container);
  return {
    render: (node: ReactNode) => mounted.render(node),
    container: () => mounted.container,
    /** The chat's shadow root. */
    root,
    text: () => root().textContent ?? "",
    /** The composer. */
    field: () => root().querySelector("textarea")!,
  };
}

/** A scripted run that answers `words`. */
export const reply = (words: string): AgentStreamPart[] => [
  { type: "message-start", messageId: `m-${words}` },
  { type: "text-delta", messageId: `m-${words}`, delta: words },
  { type: "finish", reason: "stop" },
];
