import { WebAgentsError } from "../../core/web-agents-error.js";
import type { ChatRequestBody } from "../../server/chat-wire.js";
import type { AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { abortable } from "../abortable.js";
import { runSteps } from "../run-steps.js";
import type { AvailabilityCheck } from "./create-availability-check.js";
import type { ChatTransport } from "./create-chat-transport.js";
import { readWireEvents } from "./read-wire-events.js";
import { toRequestMessages } from "../to-request-messages.js";

export interface CloudRunContext {
  transport: ChatTransport;
  availability: AvailabilityCheck;
  /** Tool steps per user message when the agent sets none. Default `LIMITS.maxSteps`. */
  maxSteps?: number;
}

/** `createChatHandler` refuses a longer `page.url` (read-chat-request.ts). */
const MAX_PAGE_URL = 4096;

/**
 * The page's URL without its fragment, which may hold a token (OAuth's
 * implicit flow) the server has no use for, and cut to what the server takes.
 */
function pageUrl(): string {
  if (typeof location === "undefined") return "";
  const hash = location.href.indexOf("#");
  return (hash === -1 ? location.href : location.href.slice(0, hash)).slice(0, MAX_PAGE_URL);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one user message through the endpoint: the shared step loop
 * (`runSteps`) with one step as one POST of the history (tools read fresh),
 * whose server-sent wire events are the loop's step parts as they are. The
 * server answers the step after `maxSteps` without tools (it counts the
 * turn's steps itself); the run then ends `max-steps`. An HTTP failure is
 * the run's `error` part; a broken stream a `network` one; Stop ends
 * `aborted`.
 */
export function runCloudSteps(req: AgentRunRequest, context: CloudRunContext): AsyncGenerator<AgentStreamPart> {
  return runSteps(req, {
    maxSteps: context.maxSteps,
    async *step({ messages, tools, signal }) {
      // A run right after the page loaded: the availability GET may be the one
      // that sets the session cookie, so let it answer first.
      const pending = context.availability.inFlight();
      if (pending) await abortable(pending, signal);
      const body: ChatRequestBody = {
        messages: toRequestMessages(messages),
        tools: tools.map(({ name, description, inputSchema, outputSchema }) => ({ name, description, inputSchema, ...(outputSchema && { outputSchema }) })),
        page: { url: pageUrl() },
        ...(req.agent && { agent: req.agent.id }),
      };
      const response = await context.transport.post(body, signal);
      if (!response.ok) {
        yield { type: "error", error: response.error.error, ...(response.error.code && { code: response.error.code }) };
        return;
      }
      yield* readWireEvents(response.body, signal);
    },
    fail: (error) =>
      WebAgentsError.isInstance(error) && error.code === "network"
        ? { type: "error", error: error.message, code: "network" }
        : { type: "error", error: `The cloud adapter failed: ${messageOf(error)}`, code: "internal" },
  });
}
