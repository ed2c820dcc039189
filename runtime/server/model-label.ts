import { PROVIDER_KEYS } from "./resolve-model.js";

/**
 * The adapter switcher's name for a model id, as the GET reports it:
 * `"openai/gpt-5.5"` is "GPT-5.5 (cloud)", `"openrouter/anthropic/claude-opus-5.5"`
 * is "Claude Opus 5.5 via OpenRouter (cloud)", `"google/gemini-3-pro"` is
 * "Gemini 3 Pro (cloud)", and Anthropic through its own SDK keeps
 * "Claude (cloud)" whatever the model.
 */
export function modelLabel(id: string): string {
  const slash = id.indexOf("/");
  const provider = slash > 0 ? id.slice(0, slash) : "";
  const model = slash > 0 ? id.slice(slash + 1) : id;
  if (provider === "anthropic") return "Claude (cloud)";
  if (provider === "openrouter") {
    return `${humanizeModel(model.slice(model.indexOf("/") + 1))} via OpenRouter (cloud)`;
  }
  return `${humanizeModel(provider in PROVIDER_KEYS ? model : model.slice(model.lastIndexOf("/") + 1))} (cloud)`;
}

/**
 * A model's own id as people write it: `gpt-5.5` -> "GPT-5.5",
 * `claude-opus-4-1-20250805` -> "Claude Opus 4.1", `gemini-2.5-flash` -> "Gemini 2.5 Flash".
 */
export function humanizeModel(model: string): string {
  const base = (model.split(":")[0] ?? model).replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, "");
  const tokens: string[] = [];
  for (const token of base.split("-").filter((entry) => entry !== "")) {
    const previous = tokens[tokens.length - 1];
    // claude-opus-4-1: version numbers split by dashes become 4.1.
    if (/^\d{1,2}$/.test(token) && previous !== undefined && /^\d{1,2}(\.\d{1,2})*$/.test(previous)) {
      tokens[tokens.length - 1] = `${previous}.${token}`;
    } else tokens.push(token);
  }
  const words: string[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] ?? "";
    const next = tokens[index + 1];
    if (token.toLowerCase() === "gpt" && next !== undefined) {
      words.push(`GPT-${next}`);
      index += 1;
    } else if (/^o\d/.test(token) || /^\d/.test(token)) {
      words.push(token.replace(/^(\d+(?:\.\d+)?)b$/, "$1B"));
    } else {
      words.push(token.charAt(0).toUpperCase() + token.slice(1));
    }
  }
  return words.join(" ");
}
