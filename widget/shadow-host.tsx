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

/**
 * A `<div data-web-agents-ui>` that renders `children` into its own open
 * shadow root with `css`: the widget's styles neither leak into the page nor
 * take the page's. The attribute marks it as the agent's UI, so the
 * person's clicks in it never make the agent cursor yield. Renders nothing
 * inside on the server (the shadow root is attached on mount).
 */
export function ShadowHost({ css, children, className, style }: ShadowHostProps): ReactNode {
  const [root, setRoot] = useState<ShadowRoot | null>(null);
  const attach = useCallback((host: HTMLDivElement | null) => {
    if (host) setRoot(host.shadowRoot ?? host.attachShadow({ mode: "open" }));
  }, []);
  return (
    <div data-web-agents-ui="" ref={attach} className={className} style={style}>
      {root &&
        createPortal(
          <>
            <style>{css}</style>
            {children}
          </>,
          root,
        )}
    </div>
  );
}
