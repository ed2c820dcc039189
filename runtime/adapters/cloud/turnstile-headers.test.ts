// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"handleDisabledFileLoadingAsSuccess":true}}
//
// Cloudflare cannot be reached from the tests: `window.turnstile` is a test
// double that appears once the script tag is in the page (happy-dom reports
// the tag as loaded without fetching it), and answers as each test scripts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WebAgentsError } from "../../core/web-agents-error.js";

type Behaviour = "solve" | "error" | "timeout-callback" | "silent";

interface RenderCall {
  container: HTMLElement;
  /** Whether the container was in the page when the widget rendered. */
  connected: boolean;
  parameters: Record<string, any>;
  id: string;
}

let module: typeof import("./turnstile-headers.js");
let cleanup: AbortController;

function installTurnstileDouble(behaviour: Behaviour, options: { defineApi?: boolean; preloaded?: boolean } = {}) {
  const renders: RenderCall[] = [];
  const removed: string[] = [];
  let tokens = 0;
  const api = {
    render(container: HTMLElement, parameters: Record<string, any>) {
      const id = `widget-${renders.length + 1}`;
      renders.push({ container, connected: container.isConnected, parameters, id });
      setTimeout(() => {
        if (behaviour === "solve") parameters.callback(`token-${++tokens}`);
        if (behaviour === "error") expect(parameters["error-callback"]("300030")).toBe(true);
        if (behaviour === "timeout-callback") parameters["timeout-callback"]();
      }, 1);
      return id;
    },
    remove(id: string) {
      removed.push(id);
    },
  };
  // Like Cloudflare's script, the double defines window.turnstile when the script tag loads
  // (a capturing listener runs before the tag's own load listeners).
  let loaded = false;
  document.addEventListener(
    "load",
    (event) => {
      const target = event.target as Element | null;
      if (target?.tagName === "SCRIPT" && target.getAttribute("src") === module.TURNSTILE_SCRIPT_URL) loaded = true;
    },
    { capture: true, signal: cleanup.signal },
  );
  Object.defineProperty(window, "turnstile", {
    configurable: true,
    get: () => (options.defineApi !== false && (loaded || options.preloaded) ? api : undefined),
  });
  return { renders, removed };
}

const scripts = () => document.querySelectorAll("script[src]");
const hosts = () => document.querySelectorAll("[data-web-agents-ui]");

beforeEach(async () => {
  cleanup = new AbortController();
  vi.resetModules();
  module = await import("./turnstile-headers.js");
});
afterEach(() => {
  cleanup.abort();
  vi.useRealTimers();
  delete (window as { turnstile?: unknown }).turnstile;
  document.head.innerHTML = "";
  document.body.innerHTML = "";
});

describe("turnstileHeaders (with a window.turnstile double)", () => {
  it("loads nothing until it is called, then injects Cloudflare's script once per page", async () => {
    installTurnstileDouble("solve");
    const sessionHeaders = module.turnstileHeaders({ siteKey: "site-key" });
    expect(scripts()).toHaveLength(0);
    await sessionHeaders();
    await sessionHeaders();
    await module.turnstileHeaders({ siteKey: "other" })();
    expect(scripts()).toHaveLength(1);
    expect(scripts()[0]!.getAttribute("src")).toBe("https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit");
  });

  it("renders an interaction-only widget bottom-centre in a data-web-agents-ui host, and removes it when it answers", async () => {
    const double = installTurnstileDouble("solve");
    const pending = module.turnstileHeaders({ siteKey: "site-key" })();
    await vi.waitFor(() => expect(double.renders).toHaveLength(1));
    const [render] = double.renders;
    expect(render!.parameters).toMatchObject({ sitekey: "site-key", action: "web_agents_chat", appearance: "interaction-only" });
    expect(render!.container.hasAttribute("data-web-agents-ui")).toBe(true);
    expect(render!.connected).toBe(true);
    expect(render!.container.style.position).toBe("fixed");
    expect(render!.container.style.bottom).toBe("16px");
    expect(render!.container.style.left).toBe("50%");
    expect(render!.container.style.transform).toBe("translateX(-50%)");

    expect(await pending).toEqual({ "x-turnstile-token": "token-1" });
    expect(double.removed).toEqual([render!.id]);
    expect(hosts()).toHaveLength(0);
  });

  it("takes a fresh token for every call, with the given action and header", async () => {
    const double = installTurnstileDouble("solve");
    const sessionHeaders = module.turnstileHeaders({ siteKey: "k", action: "checkout_chat", header: "cf-turnstile-response" });
    expect(await sessionHeaders()).toEqual({ "cf-turnstile-response": "token-1" });
    expect(await sessionHeaders()).toEqual({ "cf-turnstile-response": "token-2" });
    expect(double.renders.map((render) => render.parameters.action)).toEqual(["checkout_chat", "checkout_chat"]);
  });

  it("rejects with turnstile_failed when Cloudflare reports an error, and removes the widget", async () => {
    const double = installTurnstileDouble("error");
    const error = await module.turnstileHeaders({ siteKey: "k" })().catch((reason: unknown) => reason);
    expect(WebAgentsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "turnstile_failed", message: "The bot check failed (Cloudflare error 300030). Reload the page and try again." });
    expect(double.removed).toEqual(["widget-1"]);
    expect(hosts()).toHaveLength(0);
  });

  it("rejects with turnstile_timeout when the challenge times out", async () => {
    installTurnstileDouble("timeout-callback");
    await expect(module.turnstileHeaders({ siteKey: "k" })()).rejects.toMatchObject({ code: "turnstile_timeout" });
    expect(hosts()).toHaveLength(0);
  });

  it("rejects with turnstile_timeout when no token comes within timeout", async () => {
    vi.useFakeTimers();
    const double = installTurnstileDouble("silent");
    const pending = module.turnstileHeaders({ siteKey: "k", timeout: 5_000 })().catch((reason: unknown) => reason);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(hosts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({
      code: "turnstile_timeout",
      message: "The bot check didn't finish within 5 s. Reload the page and try again.",
    });
    expect(double.removed).toEqual(["widget-1"]);
    expect(hosts()).toHaveLength(0);
  });

  it("rejects with turnstile_unavailable when the script loads without the API, and tries again on the next call", async () => {
    installTurnstileDouble("solve", { defineApi: false });
    const sessionHeaders = module.turnstileHeaders({ siteKey: "k" });
    await expect(sessionHeaders()).rejects.toMatchObject({ code: "turnstile_unavailable", message: expect.stringContaining("challenges.cloudflare.com") });
    expect(scripts()).toHaveLength(0);
    installTurnstileDouble("solve");
    expect(await sessionHeaders()).toEqual({ "x-turnstile-token": "token-1" });
  });

  it("reuses a Turnstile the page already loaded", async () => {
    const script = document.createElement("script");
    script.src = module.TURNSTILE_SCRIPT_URL;
    document.head.append(script);
    installTurnstileDouble("solve", { preloaded: true });
    expect(await module.turnstileHeaders({ siteKey: "k" })()).toEqual({ "x-turnstile-token": "token-1" });
    expect(scripts()).toHaveLength(1);
  });

  it.each([
    [{}, /siteKey/],
    [{ siteKey: "" }, /siteKey/],
    [{ siteKey: "k", header: "" }, /header/],
    [{ siteKey: "k", timeout: 0 }, /timeout/],
  ])("rejects options %j with a TypeError", (options, message) => {
    expect(() => module.turnstileHeaders(options as never)).toThrow(message);
  });
});

describe("turnstileHeaders as the cloud adapter's sessionHeaders", () => {
  it("puts a fresh token on the GET that starts a session after a 401 session_required", async () => {
    installTurnstileDouble("solve");
    const { createCloudAdapter } = await import("./create-cloud-adapter.js");
    const { createFetchDouble, json, step, say, finish } = await import("./test-fixtures/fetch-double.js");
    const double = createFetchDouble({
      posts: [json(401, { error: "session_required", message: "Start a session." }), step(say("Hi."), finish())],
    });
    const adapter = createCloudAdapter({ fetch: double.fetch, sessionHeaders: module.turnstileHeaders({ siteKey: "k" }) });
    const parts = [];
    for await (const part of adapter.run({ messages: [], tools: [], signal: new AbortController().signal, callTool: async () => ({ content: [] }) })) {
      parts.push(part);
    }
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(double.gets()[0]!.headers.get("x-turnstile-token")).toBe("token-1");
  });
});
