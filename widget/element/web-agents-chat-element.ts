import { createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createCloudAdapter } from "../../runtime/adapters/cloud/create-cloud-adapter.js";
import { sharedCloudAdapter } from "../../runtime/adapters/cloud/shared-cloud-adapter.js";
import { defineWebAgent } from "../../runtime/agent/define-web-agent.js";
import type { WebAgent } from "../../runtime/agent/web-agent.js";
import type { AgentAdapter } from "../../runtime/session/agent-adapter.js";
import { createAgentSession, type AgentSessionStore } from "../../runtime/session/create-agent-session.js";
import type { ConfirmTool, ConfirmToolsPolicy } from "../../runtime/session/tool-policy.js";
import { AgentChat } from "../agent-chat.js";
import type { ChatLabelsInput } from "../chat-labels.js";
import { dispatchChatEvents } from "./chat-events.js";

/** The attributes `<web-agents-chat>` reads; a change re-renders the chat. */
const OBSERVED = ["endpoint", "instructions", "tools", "storage-key", "confirm-tools", "heading", "placeholder", "empty-text", "usage"] as const;

const POLICIES: readonly ConfirmToolsPolicy[] = ["consequential", "destructive", "unannotated", "all"];

/**
 * `<web-agents-chat>`: `<AgentChat>` as a custom element, for a page with no
 * React and no bundler. It renders the same chat (its own shadow root, the
 * agent cursor) and sends its run as DOM events (`web-agents-tool-call`,
 * `web-agents-confirmation`, `web-agents-finish`, `web-agents-error`;
 * bubbling and composed, see `WebAgentsChatEventMap`).
 *
 * Attributes: `endpoint` (a cloud adapter on that URL, `createCloudAdapter({ api })`;
 * default the shared one on `/api/chat`), `instructions` and `tools`
 * (comma-separated tool names: an agent for a page with no script of its
 * own), `storage-key` (`"false"` keeps the conversation in memory; default
 * `"web-agents:chat"`), `confirm-tools` (AgentChat's `confirmTools`),
 * `heading` (AgentChat's `title`), `placeholder`, `empty-text`, `usage`
 * (a boolean attribute: AgentChat's `usage`, the token statistics line).
 * Properties: `adapter`, `adapters`, `agent` (a `defineWebAgent` object; it
 * wins over `instructions` and `tools`), `confirmTools`, `confirmTool`,
 * `labels` (AgentChat's `labels`: the chat's words, any of them). The
 * global `dir` and `lang` attributes reach the chat inside: `dir="rtl"` (on
 * the element or the page) lays it out mirrored.
 *
 * @example
 * <script type="module" src="https://unpkg.com/@webmcp-agents/chat/dist/element.js"></script>
 * <web-agents-chat instructions="You help people shop here." tools="get_cart,add_to_cart"></web-agents-chat>
 */
// A server that imports the entry (server rendering) has no HTMLElement: the class is then inert.
const ElementBase: typeof HTMLElement = typeof HTMLElement === "undefined" ? (class {} as typeof HTMLElement) : HTMLElement;

export class WebAgentsChatElement extends ElementBase {
  static readonly observedAttributes = OBSERVED;

  #root: Root | undefined;
  #session: { store: AgentSessionStore; key: string; stop: () => void } | undefined;
  #adapter: AgentAdapter | undefined;
  #adapters: readonly AgentAdapter[] | undefined;
  /** The agent built from the `instructions` and `tools` attributes, and those attributes' values. */
  #attributeAgent: { key: string; agent: WebAgent } | undefined;
  #agent: WebAgent | undefined;
  #confirmTools: ConfirmToolsPolicy | undefined;
  #confirmTool: ConfirmTool | undefined;
  #labels: ChatLabelsInput | undefined;

  /** The adapter, or with `adapters` the one chosen first. Default: from `endpoint`. */
  get adapter(): AgentAdapter | undefined {
    return this.#adapter;
  }
  set adapter(value: AgentAdapter | undefined) {
    this.#adapter = value;
    // The same session takes the new adapter (AgentChat's setOptions): a turn it goes on with from the last page goes on.
    this.#render();
  }
  /** The adapters the person can switch between (remembered by id). Default `[adapter]`. */
  get adapters(): readonly AgentAdapter[] | undefined {
    return this.#adapters;
  }
  set adapters(value: readonly AgentAdapter[] | undefined) {
    this.#adapters = value;
    this.#render();
  }
  /** The page's agent (`defineWebAgent`). Default: from `instructions` and `tools`, else none (every page tool). */
  get agent(): WebAgent | undefined {
    return this.#agent;
  }
  set agent(value: WebAgent | undefined) {
    this.#agent = value;
    this.#render();
  }
  /** Which calls wait for the person's Allow (AgentChat's `confirmTools`). Default: the `confirm-tools` attribute, else `"consequential"`. */
  get confirmTools(): ConfirmToolsPolicy | undefined {
    return this.#confirmTools ?? this.#policyAttribute();
  }
  set confirmTools(value: ConfirmToolsPolicy | undefined) {
    this.#confirmTools = value;
    this.#render();
  }
  /** Answers a held call before the chat asks (AgentChat's `confirmTool`). Default: not set. */
  get confirmTool(): ConfirmTool | undefined {
    return this.#confirmTool;
  }
  set confirmTool(value: ConfirmTool | undefined) {
    this.#confirmTool = value;
    this.#render();
  }

  /** The chat's words, any of them, over the English defaults (AgentChat's `labels`). `heading`, `placeholder` and `empty-text` win over theirs. Default: English. */
  get labels(): ChatLabelsInput | undefined {
    return this.#labels;
  }
  set labels(value: ChatLabelsInput | undefined) {
    this.#labels = value;
    this.#render();
  }

  connectedCallback(): void {
    this.#root ??= createRoot(this);
    this.#render();
  }

  disconnectedCallback(): void {
    this.#root?.unmount();
    this.#root = undefined;
    this.#dropSession();
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (previous === next) return;
    if (name === "endpoint" || name === "storage-key") this.#replaceSession();
    else this.#render();
  }

  #storageKey(): string | false {
    const value = this.getAttribute("storage-key");
    if (value === "false") return false;
    return value ?? "web-agents:chat";
  }

  #policyAttribute(): ConfirmToolsPolicy | undefined {
    const value = this.getAttribute("confirm-tools");
    return POLICIES.find((policy) => policy === value);
  }

  #chosenAdapters(): readonly AgentAdapter[] {
    if (this.#adapters && this.#adapters.length > 0) return this.#adapters;
    if (this.#adapter) return [this.#adapter];
    const endpoint = this.getAttribute("endpoint");
    return [endpoint ? createCloudAdapter({ api: endpoint }) : sharedCloudAdapter()];
  }

  #pageAgent(): WebAgent | undefined {
    if (this.#agent) return this.#agent;
    const instructions = this.getAttribute("instructions");
    const tools = this.getAttribute("tools");
    if (instructions === null && tools === null) return undefined;
    // The same agent while its attributes are the same: a new one reaches the session as a change of agent, which stops a run.
    const key = JSON.stringify([instructions, tools]);
    if (this.#attributeAgent?.key !== key) {
      const agent = defineWebAgent({
        id: "page",
        instructions: instructions ?? "",
        ...(tools !== null && { tools: tools.split(",").map((name) => name.trim()).filter(Boolean) }),
      });
      this.#attributeAgent = { key, agent };
    }
    return this.#attributeAgent.agent;
  }

  /** The session the chat renders and the events come from: made once per storage key (and endpoint); adapters are swapped into it. */
  #currentSession(adapters: readonly AgentAdapter[]): AgentSessionStore {
    const storageKey = this.#storageKey();
    const key = `${String(storageKey)}`;
    if (this.#session && this.#session.key === key) return this.#session.store;
    this.#dropSession();
    const store = createAgentSession(this.#adapter ?? adapters[0]!, { storageKey });
    this.#session = { store, key, stop: dispatchChatEvents(this, store) };
    return store;
  }

  #dropSession(): void {
    if (!this.#session) return;
    this.#session.stop();
    this.#session.store.dispose();
    this.#session = undefined;
  }

  #replaceSession(): void {
    this.#dropSession();
    this.#render();
  }

  #render(): void {
    if (!this.#root) return;
    const adapters = this.#chosenAdapters();
    const session = this.#currentSession(adapters);
    const agent = this.#pageAgent();
    const confirmTools = this.confirmTools;
    const text = (name: string) => this.getAttribute(name) ?? undefined;
    const title = text("heading");
    const placeholder = text("placeholder");
    const emptyText = text("empty-text");
    // A boolean attribute, as HTML's: present is on; "false" is accepted as off, as for storage-key.
    const usage = this.hasAttribute("usage") && this.getAttribute("usage") !== "false";
    this.#root.render(
      createElement(AgentChat, {
        session,
        adapters,
        storageKey: this.#storageKey(),
        ...(agent && { agent }),
        ...(confirmTools && { confirmTools }),
        ...(this.#confirmTool && { confirmTool: this.#confirmTool }),
        ...(title !== undefined && { title }),
        ...(placeholder !== undefined && { placeholder }),
        ...(emptyText !== undefined && { emptyText }),
        ...(this.#labels && { labels: this.#labels }),
        usage,
      }),
    );
  }
}

/** Defines `<web-agents-chat>` unless the page already has it (a second copy of the script); does nothing outside a browser. */
export function defineWebAgentsChat(name = "web-agents-chat"): void {
  if (typeof customElements === "undefined" || customElements.get(name)) return;
  customElements.define(name, WebAgentsChatElement);
}
