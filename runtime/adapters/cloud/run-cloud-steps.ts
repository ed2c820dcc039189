import { toolErrorPart } from "../../session/tool-error-part.js";
import { isRunErrorCode } from "../../errors/error-codes.js";
import { WebAgentsError } from "../../core/web-agents-error.js";
import type { ChatRequestBody } from "../../server/chat-wire.js";
import type { AgentRunRequest, ToolCallRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { abortable, isAbortError } from "../abortable.js";
import { CANCELLED_CALL, endStep } from "../end-step.js";
import { RunTranscript } from "../run-transcript.js";
import { turnToolSteps } from "../turn-tool-steps.js";
import type { AvailabilityCheck } from "./create-availability-check.js";
import type { ChatTransport } from "./create-chat-transport.js";
import { readWireEvents } from "./read-wire-events.js";
import { toRequestMessages } from "./to-request-messages.js";

export interface CloudRunContext {
  transport: ChatTransport;
  availability: AvailabilityCheck;
  /** Tool steps per user message when the agent sets none. */
  maxSteps: number;
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
 * Runs one user message through the endpoint, step by step: each step POSTs
 * the history (tools read fresh), streams the reply back as stream parts,
 * then runs the step's tool calls through `req.callTool` in order. The next
 * step sends their results. After `maxSteps` tool steps (the agent's own
 * first) one more request goes out, which the server answers without tools;
 * the run then ends with `finish` `"max-steps"`. Never throws: failures are
 * `error` parts, Stop is `finish` `"aborted"`, and every `tool-call` gets its
 * `tool-result` or `tool-error`.
 */
export async function* runCloudSteps(req: AgentRunRequest, context: CloudRunContext): AsyncGenerator<AgentStreamPart> {
  const { signal } = req;
  const maxSteps = req.agent?.maxSteps ?? context.maxSteps;
  const transcript = new RunTranscript(req.messages);
  const { record, open, closeOpen } = transcript;

  let step = 0;
  let toolSteps = turnToolSteps(req.messages);
  try {
    // A run right after the page loaded: the availability GET may be the one
    // that sets the session cookie, so let it answer first.
    const pending = context.availability.inFlight();
    if (pending) await abortable(pending, signal);

    for (;;) {
      const body: ChatRequestBody = {
        messages: toRequestMessages(transcript.messages),
        tools: req.tools.map(({ name, description, inputSchema, outputSchema }) => ({ name, description, inputSchema, ...(outputSchema && { outputSchema }) })),
        page: { url: pageUrl() },
        ...(req.agent && { agent: req.agent.id }),
      };
      const response = await context.transport.post(body, signal);
      if (!response.ok) {
        yield response.error;
        return;
      }
      step++;
      const messageId = crypto.randomUUID();
      yield record({ type: "message-start", messageId });
      const calls: ToolCallRequest[] = [];
      let invalidCalls = 0;
      for await (const event of readWireEvents(response.body, signal)) {
        switch (event.type) {
          case "text-delta":
            yield record({ type: "text-delta", messageId, delta: event.delta });
            break;
          case "reasoning":
            yield record({
              type: "reasoning",
              messageId,
              text: event.text,
              ...(event.providerMetadata && { providerMetadata: event.providerMetadata }),
            });
            break;
          case "tool-call":
            open.add(event.id);
            calls.push({ id: event.id, name: event.name, input: event.input });
            yield record({
              type: "tool-call",
              messageId,
              id: event.id,
              name: event.name,
              input: event.input,
              ...(event.providerMetadata && { providerMetadata: event.providerMetadata }),
            });
            break;
          case "tool-call-invalid": {
            invalidCalls++;
            yield record({ type: "tool-call", messageId, id: event.id, name: event.name, input: event.inputText });
            const error = event.error.startsWith("Error [") ? event.error : `Error [invalid_input]: ${event.error}`;
            yield record(toolErrorPart(event.id, error));
            break;
          }
          case "error": {
            yield* closeOpen(CANCELLED_CALL);
            const code = isRunErrorCode(event.code) ? event.code : undefined;
            const error = event.error || "The assistant failed. Try again in a moment.";
            yield { type: "error", error, ...(code && { code }) };
            return;
          }
          case "finish":
            break;
        }
      }

      const hadCalls = calls.length > 0 || invalidCalls > 0;
      if (yield* endStep({ req, transcript, calls, hadCalls, summingUp: toolSteps >= maxSteps, step })) return;
      toolSteps++;
    }
  } catch (error) {
    yield* closeOpen(CANCELLED_CALL);
    if (signal.aborted || isAbortError(error)) {
      yield { type: "finish", reason: "aborted" };
    } else if (WebAgentsError.isInstance(error) && error.code === "network") {
      yield { type: "error", error: error.message, code: "network" };
    } else {
      yield { type: "error", error: `The cloud adapter failed: ${messageOf(error)}`, code: "internal" };
    }
  }
}

