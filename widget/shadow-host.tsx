import { useCallback, useState, type CSSProperties, type ReactNode } from "react";
import { createPortal } from "react-dom";

/** What `<ShadowHost>` takes. */
export interface ShadowHostProps {
  /** The stylesheet for inside the shadow root. */
  css: string;
  /** What to render inside. */
  children: ReactNode;
  /** On the host element, for the page to place and size it. */
  className?: string;
  /** On the host element, for the page to place and size it. */
  style?: CSSProperties;
}

/** One constructed sheet per stylesheet text, shared by every chat and cursor on the page. */
const sheets = new Map<string, CSSStyleSheet>();

/**
 * Gives `root` the stylesheet `css` as a constructed sheet: a page's
 * Content-Security-Policy governs `<style>` elements (`style-src` without
 * `'unsafe-inline'` blocks them) but not `adoptedStyleSheets`. False where
 * the browser cannot construct sheets: the caller renders a `<style>`.
 */
function adoptSheet(root: ShadowRoot, css: string): boolean {
  if (typeof CSSStyleSheet === "undefined" || !("adoptedStyleSheets" in root) || typeof CSSStyleSheet.prototype.replaceSync !== "function") return false;
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  return true;
}

/**
 * A `<div data-web-agents-ui>` that renders `children` into its own open
 * shadow root with `css`: the widget's styles neither leak into the page nor
 * take the page's. The attribute marks it as the agent's UI, so the
 * person's clicks in it never make the agent cursor yield. Renders nothing
 * inside on the server (the shadow root is attached on mount).
 */
export function ShadowHost({ css, children, className, style }: ShadowHostProps): ReactNode {
  const [root, setRoot] = useState<{ shadow: ShadowRoot; adopted: boolean } | null>(null);
  const attach = useCallback(
    (host: HTMLDivElement | null) => {
      if (!host) return;
      const shadow = host.shadowRoot ?? host.attachShadow({ mode: "open" });
      setRoot({ shadow, adopted: adoptSheet(shadow, css) });
    },
    [css],
  );
  return (
    <div data-web-agents-ui="" ref={attach} className={className} style={style}>
      {root &&
        createPortal(
          <>
            {!root.adopted && <style>{css}</style>}
            {children}
          </>,
          root.shadow,
        )}
    </div>
  );
}
