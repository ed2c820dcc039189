import { WebAgentsError } from "../../core/web-agents-error.js";

/** What `turnstileHeaders` takes. */
export interface TurnstileHeadersOptions {
  /** The widget's site key (public, from the Cloudflare dashboard). Required. */
  siteKey: string;
  /** The action the token carries; the server checks it when its action is set. Default `"web_agents_chat"`. */
  action?: string;
  /** The header the token goes in. Default `"x-turnstile-token"`. */
  header?: string;
  /** Milliseconds to wait for a token (a person may have to click). Default `60000`. */
  timeout?: number;
}

/** The part of Cloudflare's `window.turnstile` this uses (https://developers.cloudflare.com/turnstile/get-started/client-side-rendering/). */
interface TurnstileApi {
  render(container: HTMLElement, parameters: Record<string, unknown>): string | null | undefined;
  remove(widgetId: string): void;
}

/** Cloudflare's script, explicit rendering: nothing renders until `render` is called. */
export const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

const readApi = (): TurnstileApi | undefined => (window as unknown as { turnstile?: TurnstileApi }).turnstile;

let loading: Promise<TurnstileApi> | undefined;

/** Injects Cloudflare's script once per page (or reuses the page's own) and resolves to `window.turnstile`. */
function loadTurnstile(): Promise<TurnstileApi> {
  const ready = readApi();
  if (ready) return Promise.resolve(ready);
  if (loading) return loading;
  const attempt = new Promise<TurnstileApi>((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${TURNSTILE_SCRIPT_URL}"]`);
    const script = existing ?? document.createElement("script");
    const failed = () => {
      if (!existing) script.remove();
      reject(
        new WebAgentsError(
          "turnstile_unavailable",
          "Couldn't load Cloudflare's bot check. Check your connection (and that the page's Content-Security-Policy allows https://challenges.cloudflare.com), then try again.",
        ),
      );
    };
    script.addEventListener("load", () => {
      const api = readApi();
      if (api) resolve(api);
      else failed();
    }, { once: true });
    script.addEventListener("error", failed, { once: true });
    if (!existing) {
      script.src = TURNSTILE_SCRIPT_URL;
      script.async = true;
      document.head.append(script);
    }
  });
  loading = attempt;
  // A failed load (offline, blocked by CSP) may succeed on a later call.
  attempt.catch(() => {
    if (loading === attempt) loading = undefined;
  });
  return loading;
}

function checkOptions(options: TurnstileHeadersOptions): void {
  if (typeof options !== "object" || options === null || typeof options.siteKey !== "string" || options.siteKey === "") {
    throw new TypeError("turnstileHeaders needs { siteKey }: the widget's site key from the Cloudflare dashboard.");
  }
  const { action, header, timeout } = options;
  if (action !== undefined && typeof action !== "string") throw new TypeError("action must be a string.");
  if (header !== undefined && (typeof header !== "string" || header === "")) throw new TypeError("header must be a non-empty header name.");
  if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0 && Number.isFinite(timeout))) {
    throw new TypeError("timeout must be a positive number of milliseconds.");
  }
}

/**
 * A `sessionHeaders` for `createCloudAdapter` that solves a Cloudflare
 * Turnstile challenge, for a server with `session: { turnstile }`.
 *
 * Nothing loads until it is first called (a message needs a session): then
 * Cloudflare's script is injected, once per page, and a widget renders
 * bottom-centre with `appearance: "interaction-only"` (invisible unless
 * Cloudflare wants a click), in a host marked `data-web-agents-ui` so
 * clicking it never makes the agent's cursor yield. The widget is removed as
 * soon as it answers. Every call takes a fresh token (tokens are
 * single-use) and resolves to `{ [header]: token }`; it rejects with a
 * `WebAgentsError` (`turnstile_unavailable`, `turnstile_failed` or
 * `turnstile_timeout`) that says what to do.
 */
export function turnstileHeaders(options: TurnstileHeadersOptions): () => Promise<Record<string, string>> {
  checkOptions(options);
  const { siteKey, action = "web_agents_chat", header = "x-turnstile-token", timeout = 60_000 } = options;

  return () => {
    if (typeof window === "undefined" || typeof document === "undefined") {
      return Promise.reject(new WebAgentsError("turnstile_unavailable", "turnstileHeaders runs only in a browser: start chat sessions from the page."));
    }
    return new Promise<Record<string, string>>((resolve, reject) => {
      let settled = false;
      let host: HTMLElement | undefined;
      let widget: { api: TurnstileApi; id: string } | undefined;

      const cleanUp = () => {
        settled = true;
        clearTimeout(timer);
        if (widget) {
          try {
            widget.api.remove(widget.id);
          } catch {
            // Already gone: removing is best effort.
          }
        }
        host?.remove();
      };
      const fail = (error: unknown) => {
        if (settled) return;
        cleanUp();
        reject(error);
      };

      const timer = setTimeout(
        () =>
          fail(
            new WebAgentsError(
              "turnstile_timeout",
              `The bot check didn't finish within ${Math.round(timeout / 1000)} s. Reload the page and try again.`,
            ),
          ),
        timeout,
      );

      loadTurnstile().then((api) => {
        if (settled) return;
        host = document.createElement("div");
        host.setAttribute("data-web-agents-ui", "");
        host.setAttribute("data-web-agents-turnstile", "");
        Object.assign(host.style, {
          position: "fixed",
          bottom: "16px",
          left: "50%",
          transform: "translateX(-50%)",
          zIndex: "2147483647",
        });
        document.body.append(host);
        try {
          const id = api.render(host, {
            sitekey: siteKey,
            action,
            appearance: "interaction-only",
            retry: "never",
            callback: (token: string) => {
              if (settled) return;
              cleanUp();
              resolve({ [header]: token });
            },
            "error-callback": (code?: string) => {
              fail(
                new WebAgentsError(
                  "turnstile_failed",
                  `The bot check failed${code ? ` (Cloudflare error ${code})` : ""}. Reload the page and try again.`,
                ),
              );
              // Handled here: Cloudflare must not throw or retry on its own.
              return true;
            },
            "timeout-callback": () =>
              fail(new WebAgentsError("turnstile_timeout", "The bot check timed out before it was solved. Try again.")),
          });
          if (typeof id === "string") {
            widget = { api, id };
            // The callback may have answered during render, before the id was known.
            if (settled) cleanUp();
          } else if (!settled) {
            fail(new WebAgentsError("turnstile_failed", "Cloudflare's bot check didn't start. Reload the page and try again."));
          }
        } catch (error) {
          fail(new WebAgentsError("turnstile_failed", "Cloudflare's bot check didn't start. Reload the page and try again.", { cause: error }));
        }
      }, fail);
    });
  };
}
