import { streamText, type LanguageModel } from "ai";
import { flattenWebAgents, selectTools, type WebAgent } from "../agent/index.js";
import { buildSystemPrompt } from "./build-system-prompt.js";
import type { ChatHandlerOptions } from "./chat-handler-options.js";
import { ChatHttpError, jsonResponse } from "./chat-http-error.js";
import type { ChatLogger } from "./chat-logger.js";
import { createSessionCookies, type SessionCookies } from "./chat-session.js";
import type { ChatAvailability, ChatRequestBody, ChatWireEvent } from "./chat-wire.js";
import { checkOrigin, corsHeaders, normalizeOrigins, type OriginMatch } from "./check-origin.js";
import { defaultClientKey } from "./client-address.js";
import { countToolSteps } from "./count-tool-steps.js";
import { createMemoryCounterStore } from "./counter-store.js";
import { checkDailyBudgetOptions, reserveBudget, type BudgetReservation } from "./daily-budget.js";
import { eventStreamResponse } from "./event-stream-response.js";
import { modelLabel } from "./model-label.js";
import { checkRateLimit, checkRateLimitOptions } from "./rate-limit.js";
import { readChatRequest, type ChatRequestLimits } from "./read-chat-request.js";
import { MissingApiKeyError, resolveModel } from "./resolve-model.js";
import { toAiTools } from "./to-ai-tools.js";
import { toModelMessages } from "./to-model-messages.js";
import { toWireEvents, type StepOutcome } from "./to-wire-events.js";
import { verifyTurnstile } from "./verify-turnstile.js";
import { LIMITS } from "../session/limits.js";

/** A Fetch-API request handler: `Request` in, `Response` out. */
export type ChatHandler = (request: Request) => Promise<Response>;

/** The text the summary step ends with: the turn's tool steps are spent. */
export const SUMMARY_NOTE =
  "(This message's tool steps are used up. Don't call tools now: answer with what you found, and say what is left to do.)";

const CACHE_BREAKPOINT = { anthropic: { cacheControl: { type: "ephemeral" } } };

/** A model as configured: resolved, or undefined when its provider's key is missing. */
interface ModelEntry {
  id: string;
  model: LanguageModel | undefined;
}

/**
 * The server side of the cloud adapter: a Fetch-API handler for your
 * `/api/chat`, built on the AI SDK (`streamText`). GET answers
 * `{ enabled, model, label }`; each POST runs ONE model step over the
 * page's tools, declared without `execute` so every call runs in the
 * browser, and streams it back as server-sent {@link ChatWireEvent}s. Once
 * the turn's tool steps reach `maxSteps`, the step is answered with tools
 * switched off (`toolChoice: "none"`) so the model sums up.
 *
 * Mount it anywhere that speaks Fetch (`export const POST = handler` on an
 * edge runtime), or with {@link toNodeListener} on node:http, Express or a
 * Vite dev server. The provider key stays here: provider errors are logged
 * and answered with a generic message.
 *
 * @throws TypeError at creation for a model id with an unknown provider, an
 *   agent tree with a duplicate id, or an option out of range.
 * @example
 * const handler = createChatHandler({ model: "openai/gpt-5.5", agents, rateLimit: { requests: 30, windowMs: 60_000 } });
 * http.createServer(toNodeListener(handler)).listen(3000);
 */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const logger: ChatLogger = options.logger ?? console;
  const maxSteps = positiveInteger("maxSteps", options.maxSteps, LIMITS.maxSteps);
  const limits: ChatRequestLimits = {
    maxBodyBytes: positiveInteger("maxBodyBytes", options.maxBodyBytes, 262_144),
    maxMessages: positiveInteger("maxMessages", options.maxMessages, 200),
    maxTools: positiveInteger("maxTools", options.maxTools, 64),
  };
  if (options.maxOutputTokens !== undefined) positiveInteger("maxOutputTokens", options.maxOutputTokens, 0);
  if (options.rateLimit !== undefined) checkRateLimitOptions(options.rateLimit);
  if (options.dailyBudget !== undefined) checkDailyBudgetOptions(options.dailyBudget);
  const allowedOrigins = normalizeOrigins(options.allowedOrigins ?? []);
  const store = options.store ?? createMemoryCounterStore();
  const sessions: SessionCookies | undefined = options.session && createSessionCookies(options.session);
  const turnstile = options.session?.turnstile;
  if (turnstile !== undefined && !turnstile.secretKey) {
    throw new TypeError("session.turnstile.secretKey is empty; set it from the Turnstile widget's secret key.");
  }

  const resolve = (model: string | LanguageModel): ModelEntry => {
    if (typeof model !== "string") return { id: languageModelId(model), model };
    try {
      const resolved = options.resolveModel?.(model) ?? resolveModel(model, { env: options.env, fetch: options.fetch });
      return { id: model, model: resolved };
    } catch (error) {
      if (!(error instanceof MissingApiKeyError)) throw error;
      logger.warn(`webmcp-agents: ${error.message} Until then the chat answers chat_disabled.`);
      return { id: model, model: undefined };
    }
  };
  const main = resolve(options.model);
  const label = options.label ?? modelLabel(main.id);
  const agents = flattenWebAgents(options.agents ?? []);
  const agentModels = new Map<string, ModelEntry>();
  for (const agent of agents.values()) {
    if (agent.model !== undefined && agent.model !== options.model) agentModels.set(agent.id, resolve(agent.model));
  }

  const clientKeyOf = (request: Request) =>
    `client:${options.clientKey?.(request) ?? defaultClientKey(request) ?? "anonymous"}`;

  const availability = (): ChatAvailability =>
    main.model === undefined ? { enabled: false } : { enabled: true, model: main.id, label };

  async function get(request: Request): Promise<Response> {
    const headers: Record<string, string> = {};
    if (main.model !== undefined && sessions !== undefined) {
      const token = turnstile === undefined ? null : request.headers.get(turnstile.header ?? "x-turnstile-token");
      if (turnstile !== undefined && token !== null) {
        // Each of these costs a call to Cloudflare: they count against the client's rate limit too.
        if (options.rateLimit !== undefined) await checkRateLimit(store, clientKeyOf(request), options.rateLimit, logger);
        const url = new URL(request.url);
        await verifyTurnstile({
          token,
          secretKey: turnstile.secretKey,
          action: turnstile.action,
          hostnames: new Set(turnstile.hostnames ?? [url.hostname, ...[...allowedOrigins].map((origin) => new URL(origin).hostname)]),
          timeout: turnstile.timeout ?? 5000,
          fetch: turnstile.fetch ?? globalThis.fetch,
          remoteIp: options.clientKey === undefined ? defaultClientKey(request) : undefined,
          store,
          logger,
        });
        headers["set-cookie"] = (await sessions.issue(request)).setCookie;
      } else if (turnstile === undefined && (await sessions.read(request)) === undefined) {
        headers["set-cookie"] = (await sessions.issue(request)).setCookie;
      }
    }
    return jsonResponse(200, availability(), headers);
  }

  async function post(request: Request): Promise<Response> {
    if (main.model === undefined) {
      throw new ChatHttpError(503, "chat_disabled", "Chat isn't configured on this site.");
    }
    let sessionId: string | undefined;
    if (sessions !== undefined) {
      sessionId = await sessions.read(request);
      if (sessionId === undefined) {
        throw new ChatHttpError(401, "session_required", "Start a chat session first: GET this endpoint, then send again.");
      }
    }
    if (options.rateLimit !== undefined) {
      // Sessions without Turnstile cost nothing to mint, so a fresh cookie per POST must not buy a
      // fresh bucket: the client's own bucket applies too, and both must pass. A Turnstile session
      // costs a solved challenge (and its GET counts against the client), so it has its own bucket.
      const keys = sessionId === undefined ? [clientKeyOf(request)] : [`session:${sessionId}`];
      if (sessionId !== undefined && turnstile === undefined) keys.push(clientKeyOf(request));
      const rateLimit = options.rateLimit;
      // Each key counts the request even when another refuses it, as a single bucket does.
      const checks = await Promise.allSettled(keys.map((key) => checkRateLimit(store, key, rateLimit, logger)));
      const refused = checks.find((check): check is PromiseRejectedResult => check.status === "rejected");
      if (refused !== undefined) throw refused.reason;
    }
    const body = await readChatRequest(request, limits);

    let agent: WebAgent | undefined;
    if (body.agent !== undefined) {
      agent = agents.get(body.agent);
      if (agent === undefined) {
        throw new ChatHttpError(
          400,
          "bad_request",
          `This endpoint has no agent ${JSON.stringify(body.agent)}; register it with createChatHandler({ agents }).`,
        );
      }
    }
    const entry = (agent && agentModels.get(agent.id)) ?? main;
    if (entry.model === undefined) {
      throw new ChatHttpError(503, "chat_disabled", "Chat isn't configured on this site.");
    }
    const stepLimit = agent?.maxSteps ?? maxSteps;
    const summary = Math.max(countToolSteps(body.messages), body.step ?? 0) >= stepLimit;
    const tools = selectTools(agent, body.tools);
    const system = buildSystemPrompt({ system: options.system, agent });
    const messages = toModelMessages(body.messages);
    if (messages.length === 0) {
      throw new ChatHttpError(400, "bad_request", "The request is malformed: the conversation has no text to answer.");
    }
    if (summary) messages.push({ role: "user", content: [{ type: "text", text: SUMMARY_NOTE }] });
    // Claude caches only up to marked breakpoints: the system prompt (with the tools before it) and
    // the conversation so far, so the next step reads both back. Other providers ignore the marks.
    const last = messages.length - 1;
    messages[last] = { ...messages[last]!, providerOptions: CACHE_BREAKPOINT } as (typeof messages)[number];

    let reservation: BudgetReservation | undefined;
    if (options.dailyBudget !== undefined) {
      const reserve = options.dailyBudget.reserve ?? estimateTokens(system, body, options.maxOutputTokens);
      reservation = await reserveBudget(store, options.dailyBudget, reserve, logger);
    }

    const abort = new AbortController();
    const stopModel = () => abort.abort();
    request.signal.addEventListener("abort", stopModel, { once: true });
    const outcome: StepOutcome = { usedTokens: undefined, failed: false, produced: false };
    let events: AsyncIterable<ChatWireEvent>;
    try {
      const result = streamText({
        model: entry.model,
        system: { role: "system", content: system, providerOptions: CACHE_BREAKPOINT },
        messages,
        // Declared even on the summary step: Anthropic refuses tool_use blocks in a request without tools.
        ...(tools.length > 0 ? { tools: toAiTools(tools), toolChoice: summary ? "none" : "auto" } : {}),
        ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
        abortSignal: abort.signal,
        // Logged once, in toWireEvents; the default would print it again.
        onError: () => {},
      });
      events = toWireEvents(result.fullStream, { summary, outcome, logger });
    } catch (error) {
      await reservation?.settle(0);
      throw error;
    }
    return eventStreamResponse(settleAfter(events, outcome, reservation), {
      onClose: () => {
        request.signal.removeEventListener("abort", stopModel);
        stopModel();
      },
    });
  }

  async function handle(request: Request, origin: OriginMatch): Promise<Response> {
    switch (request.method) {
      case "GET":
        return get(request);
      case "POST":
        return post(request);
      case "OPTIONS":
        return new Response(null, {
          status: 204,
          headers: {
            allow: "GET, POST, OPTIONS",
            ...(origin === "allowed"
              ? {
                  "access-control-allow-methods": "GET, POST",
                  "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "content-type",
                  "access-control-max-age": "600",
                }
              : {}),
          },
        });
      default:
        throw new ChatHttpError(405, "method_not_allowed", `Use GET or POST, not ${request.method}.`, {
          headers: { allow: "GET, POST, OPTIONS" },
        });
    }
  }

  return async (request) => {
    let origin: OriginMatch = "absent";
    let response: Response;
    try {
      origin = checkOrigin(request, allowedOrigins);
      response = await handle(request, origin);
    } catch (error) {
      response = errorResponse(error, logger);
    }
    if (origin === "allowed") for (const [name, value] of Object.entries(corsHeaders(request))) response.headers.set(name, value);
    return response;
  };
}

function errorResponse(error: unknown, logger: ChatLogger): Response {
  if (error instanceof ChatHttpError) return error.toResponse();
  logger.error("webmcp-agents: the chat handler failed", error);
  return new ChatHttpError(500, "internal", "The chat endpoint failed. Try again.").toResponse();
}

/** Settles the budget once the step's events end, however they end (finished, failed, client gone). */
async function* settleAfter(
  events: AsyncIterable<ChatWireEvent>,
  outcome: StepOutcome,
  reservation: BudgetReservation | undefined,
): AsyncGenerator<ChatWireEvent> {
  try {
    yield* events;
  } finally {
    // A call that failed before producing anything spent nothing; an unknown spend keeps the reservation.
    await reservation?.settle(outcome.usedTokens ?? (outcome.failed && !outcome.produced ? 0 : undefined));
  }
}

/** A generous token estimate for the budget: about 3 characters a token, plus the output cap. */
function estimateTokens(system: string, body: ChatRequestBody, maxOutputTokens: number | undefined): number {
  const characters = system.length + JSON.stringify(body.messages).length + JSON.stringify(body.tools).length;
  return Math.ceil(characters / 3) + (maxOutputTokens ?? 4096);
}

/** `"<provider>/<model>"` for a LanguageModel object: its provider's first segment (`"openai.responses"` -> `"openai"`). */
function languageModelId(model: LanguageModel): string {
  if (typeof model === "string") return model;
  const provider = model.provider.split(".")[0] ?? model.provider;
  return `${provider}/${model.modelId}`;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive integer; got ${String(value)}.`);
  return value;
}
