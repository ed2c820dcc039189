import { stepCountIs, ToolLoopAgent, type LanguageModel, type ToolSet } from "ai";
import type { WebAgent } from "../agent/index.js";
import { buildSystemPrompt } from "./build-system-prompt.js";
import { resolveModel, type ResolveModelOptions } from "./resolve-model.js";
import { LIMITS } from "../session/limits.js";

/** What {@link toToolLoopAgent} takes besides the agent. */
export interface ToolLoopAgentOptions<TOOLS extends ToolSet> extends ResolveModelOptions {
  /** The model, when the agent names none (its own `model` wins). Required then. */
  model?: string | LanguageModel;
  /**
   * The AI SDK tools the agent may call. Page tools run in the browser, so
   * on the server you supply your own (with `execute`). Default `{}`.
   */
  tools?: TOOLS;
  /** Extra system text before the agent's "About this site". Default: none. */
  system?: string;
  /** Model steps per call, when the agent sets none. Default `8`. */
  maxSteps?: number;
}

/**
 * The AI SDK `ToolLoopAgent` (ai@6) for a `WebAgent`, for running the same
 * agent from server code (a cron job, an eval, an API route of your own):
 * its instructions under "About this site" in the same system prompt the
 * chat handler uses, its model (resolved with {@link resolveModel}, keys from
 * the environment) or `options.model`, and `stopWhen: stepCountIs(maxSteps)`.
 *
 * @throws TypeError when neither the agent nor `options` names a model, or for an unknown provider.
 * @throws MissingApiKeyError when the provider's key is not set.
 * @example
 * const agent = toToolLoopAgent(orders, { tools: { track_order: tool({ ... }) } });
 * const { text } = await agent.generate({ prompt: "Where is order 1042?" });
 */
export function toToolLoopAgent<TOOLS extends ToolSet = {}>(
  agent: WebAgent,
  options: ToolLoopAgentOptions<TOOLS> = {},
): ToolLoopAgent<never, TOOLS> {
  const model = agent.model ?? options.model;
  if (model === undefined) {
    throw new TypeError(
      `The agent ${JSON.stringify(agent.id)} names no model; pass one: toToolLoopAgent(agent, { model: "openai/gpt-5.5" }).`,
    );
  }
  const maxSteps = agent.maxSteps ?? options.maxSteps ?? LIMITS.maxSteps;
  return new ToolLoopAgent<never, TOOLS>({
    id: agent.id,
    instructions: buildSystemPrompt({ system: options.system, agent }),
    model: typeof model === "string" ? resolveModel(model, options) : model,
    tools: options.tools ?? ({} as TOOLS),
    stopWhen: stepCountIs(maxSteps),
  });
}
