import { AGENT_ID } from "../../agent/agent-id.js";
import { describeValue } from "../../agent/describe-value.js";
import { isWebAgent } from "../../agent/is-web-agent.js";
import { isWebTool } from "../../core/define-web-tool.js";
import type { AgentScenario, AgentScenarioConfig, ExpectedCall, ScenarioConfirm, ScenarioGeneration } from "./agent-scenario.js";

const CONFIG_KEYS = new Set(["id", "title", "messages", "agent", "tools", "calls", "forbidden", "answer", "confirm", "runs", "generation"]);
const GENERATION_KEYS = new Set(["temperature", "maxNewTokens", "enableThinking"]);
const CONFIRM_ANSWERS = new Set(["allow", "decline"]);

/**
 * Defines one scenario of an agent's evaluation as plain data: the person's
 * message(s), the calls that must happen in order and those that must not,
 * how confirmation prompts are answered, what the answer must say, how many
 * sampled runs, and the generation settings. `evaluateAgent` runs it.
 *
 * @throws TypeError, with a message that names the fix, for an unknown
 * option, a bad id, no message, a call without a tool name, an input match
 * that is neither an object nor a function, a confirm answer other than
 * allow / decline, runs that is not a positive integer, or tools that are
 * not from `defineWebTool`. All at definition time, not when it runs.
 */
export function defineAgentScenario(config: AgentScenarioConfig): AgentScenario {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new TypeError(`defineAgentScenario: pass a config object: { id, messages, calls?, answer? }; got ${describeValue(config)}.`);
  }
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) throw new TypeError(`defineAgentScenario: unknown option "${key}". Known options: ${[...CONFIG_KEYS].join(", ")}.`);
  }
  if (typeof config.id !== "string" || !AGENT_ID.test(config.id)) {
    throw new TypeError(`defineAgentScenario: id must be 1 to 64 of a-z A-Z 0-9 _ . - (like "buy-socks"); got ${describeValue(config.id)}.`);
  }
  const where = `defineAgentScenario("${config.id}")`;
  if (config.title !== undefined && typeof config.title !== "string") throw new TypeError(`${where}: title must be a string when given; got ${describeValue(config.title)}.`);
  const messages = typeof config.messages === "string" ? [config.messages] : config.messages;
  if (!Array.isArray(messages) || messages.length === 0 || messages.some((message) => typeof message !== "string" || message.trim() === "")) {
    throw new TypeError(`${where}: messages must be the person's message, or a non-empty list of them, each a non-empty string; got ${describeValue(config.messages)}.`);
  }
  if (config.agent !== undefined && !isWebAgent(config.agent)) {
    throw new TypeError(`${where}: agent must come from defineWebAgent; got ${describeValue(config.agent)}.`);
  }
  const tools = config.tools;
  if (tools !== undefined && typeof tools !== "function") {
    if (!Array.isArray(tools)) throw new TypeError(`${where}: tools must be a list of tools from defineWebTool, or a function returning one per run; got ${describeValue(tools)}.`);
    tools.forEach((tool, index) => {
      if (!isWebTool(tool)) throw new TypeError(`${where}: tools[${index}] must come from defineWebTool; got ${describeValue(tool)}.`);
    });
  }
  const calls = readCalls(config.calls, `${where}: calls`);
  const forbidden = readCalls(
    config.forbidden?.map((entry) => (typeof entry === "string" ? { tool: entry } : entry)),
    `${where}: forbidden`,
  );
  const answer = config.answer;
  if (answer !== undefined && typeof answer !== "string" && typeof answer !== "function" && !(answer instanceof RegExp)) {
    throw new TypeError(`${where}: answer must be a RegExp, a string the answer contains, or a predicate (answer) => boolean; got ${describeValue(answer)}.`);
  }
  const confirm = readConfirm(config.confirm ?? "allow", where);
  const runs = config.runs ?? 1;
  if (!Number.isInteger(runs) || runs < 1) throw new TypeError(`${where}: runs must be a positive integer (sampled repetitions); got ${describeValue(runs)}.`);
  const generation = readGeneration(config.generation, where);
  return Object.freeze({
    id: config.id,
    title: config.title ?? config.id,
    messages: Object.freeze([...messages]),
    agent: config.agent,
    tools: typeof tools === "function" ? tools : tools && Object.freeze([...tools]),
    calls,
    forbidden,
    answer,
    confirm,
    runs,
    generation,
  });
}

function readCalls(calls: readonly ExpectedCall[] | undefined, where: string): readonly ExpectedCall[] {
  if (calls === undefined) return Object.freeze([]);
  if (!Array.isArray(calls)) throw new TypeError(`${where} must be a list of { tool, input? }; got ${describeValue(calls)}.`);
  return Object.freeze(
    calls.map((call, index) => {
      if (typeof call !== "object" || call === null || typeof call.tool !== "string" || call.tool === "") {
        throw new TypeError(`${where}[${index}] must be { tool: "<name>", input? } with the tool's name; got ${describeValue(call)}.`);
      }
      for (const key of Object.keys(call)) {
        if (key !== "tool" && key !== "input") throw new TypeError(`${where}[${index}]: unknown key "${key}". Known: tool, input.`);
      }
      const input = call.input;
      if (input !== undefined && typeof input !== "function" && (typeof input !== "object" || input === null || Array.isArray(input))) {
        throw new TypeError(`${where}[${index}].input must be an object to match part of the input, or a predicate (input) => boolean; got ${describeValue(input)}.`);
      }
      return Object.freeze({ ...call });
    }),
  );
}

function readConfirm(confirm: ScenarioConfirm, where: string): ScenarioConfirm {
  if (typeof confirm === "string") {
    if (!CONFIRM_ANSWERS.has(confirm)) throw new TypeError(`${where}: confirm must be "allow", "decline" or { <tool>: "allow" | "decline" }; got ${describeValue(confirm)}.`);
    return confirm;
  }
  if (typeof confirm !== "object" || confirm === null || Array.isArray(confirm)) {
    throw new TypeError(`${where}: confirm must be "allow", "decline" or { <tool>: "allow" | "decline" }; got ${describeValue(confirm)}.`);
  }
  for (const [tool, answer] of Object.entries(confirm)) {
    if (!CONFIRM_ANSWERS.has(answer)) throw new TypeError(`${where}: confirm.${tool} must be "allow" or "decline"; got ${describeValue(answer)}.`);
  }
  return Object.freeze({ ...confirm });
}

function readGeneration(generation: ScenarioGeneration | undefined, where: string): ScenarioGeneration | undefined {
  if (generation === undefined) return undefined;
  if (typeof generation !== "object" || generation === null || Array.isArray(generation)) {
    throw new TypeError(`${where}: generation must be { temperature?, maxNewTokens?, enableThinking? }; got ${describeValue(generation)}.`);
  }
  for (const key of Object.keys(generation)) {
    if (!GENERATION_KEYS.has(key)) throw new TypeError(`${where}: unknown generation setting "${key}". Known: ${[...GENERATION_KEYS].join(", ")}.`);
  }
  const { temperature, maxNewTokens, enableThinking } = generation;
  if (temperature !== undefined && (typeof temperature !== "number" || !(temperature >= 0))) {
    throw new TypeError(`${where}: generation.temperature must be a number of 0 or more (0 is greedy); got ${describeValue(temperature)}.`);
  }
  if (maxNewTokens !== undefined && (!Number.isInteger(maxNewTokens) || maxNewTokens < 1)) {
    throw new TypeError(`${where}: generation.maxNewTokens must be a positive integer; got ${describeValue(maxNewTokens)}.`);
  }
  if (enableThinking !== undefined && typeof enableThinking !== "boolean") {
    throw new TypeError(`${where}: generation.enableThinking must be true or false; got ${describeValue(enableThinking)}.`);
  }
  return Object.freeze({ ...generation });
}
