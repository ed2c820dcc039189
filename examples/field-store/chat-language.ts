import type { ChatLabelsInput } from "@webmcp-agents/chat";
import { GERMAN } from "./labels-de.js";
import { HEBREW } from "./labels-he.js";

/** The chat's words in English: only the two the Field Store words its own way. */
const ENGLISH: ChatLabelsInput = {
  title: "Field Store assistant",
  emptyText: "Ask me to find, add or order something, or where an order is.",
};

const LANGUAGES: Record<string, { labels: ChatLabelsInput; dir: "ltr" | "rtl" }> = {
  de: { labels: GERMAN, dir: "ltr" },
  he: { labels: HEBREW, dir: "rtl" },
};

/**
 * The chat's language from the address (`?lang=de`, `?lang=he`; English
 * otherwise): its labels, and the page's `lang` and `dir` set to match, so a
 * right-to-left language lays the chat (and the page) out mirrored. The
 * store's own page text and the model's answers stay English: they are
 * content, not the chat's words.
 */
export function chatLanguage(search = location.search): ChatLabelsInput {
  const lang = new URLSearchParams(search).get("lang") ?? "";
  const language = LANGUAGES[lang];
  if (!language) return ENGLISH;
  document.documentElement.lang = lang;
  document.documentElement.dir = language.dir;
  return language.labels;
}
