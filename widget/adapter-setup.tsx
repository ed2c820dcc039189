import { useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode } from "react";
import type { AdapterStatus, ModelChoice } from "../runtime/session/agent-adapter.js";
import { formatBytes, formatDownloaded } from "../runtime/errors/format-bytes.js";
import { formatTimeLeft } from "./time-left.js";
import { useTimeLeft } from "./use-time-left.js";

/** What `<AdapterSetup>` takes. */
export interface AdapterSetupProps {
  status: AdapterStatus;
  /** The adapter's models, for the selected one's name and size. */
  models: readonly ModelChoice[];
  /** Starts the download (`adapter.prepare`); not set for an adapter without `prepare`. */
  onPrepare?: () => void;
  /** Aborts the download's signal. */
  onCancel: () => void;
  /** Why the last download or model switch failed. */
  setupError?: string;
  /**
   * Called when the card the person's focus was in goes away (the model is
   * ready): where focus goes next, e.g. the composer. Without it focus
   * would fall to `<body>`.
   */
  onFocusLeft?: () => void;
}

const percent = (progress: number) => `${Math.round(Math.min(1, Math.max(0, progress)) * 100)}%`;

/**
 * What the adapter needs before it can answer, as a card:
 *
 * - `needs-download`: the size, the adapter's note and a Download button;
 * - `downloading`: a progress bar with percent, MB of total and time left,
 *   and Cancel;
 * - `loading` with progress: a model read from this device, worded as a load
 *   (never as a download); without progress: "Connecting…";
 * - `error`: what failed, with Try again when the adapter can prepare.
 *
 * Renders nothing for `ready` and `unavailable` (the composer explains it).
 * `setupError` shows in every state, so a model switch refused while the
 * model downloads or starts says why instead of being ignored.
 *
 * Focus is never lost with a state: when the control the person used goes
 * away with its state (Download, Cancel, Try again), the card that replaced
 * it takes focus (it is focusable, `tabIndex={-1}`, and labelled); when the
 * card itself goes, `onFocusLeft` says where focus goes.
 */
export function AdapterSetup({ status, models, onPrepare, onCancel, setupError, onFocusLeft }: AdapterSetupProps): ReactNode {
  const card = useRef<HTMLElement>(null);
  // The element in the setup that last had focus, while the person has not moved focus elsewhere.
  const focused = useRef<Element | null>(null);
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    focused.current = event.target;
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    // Moved elsewhere by the person (a removed element gets no blur with a related target).
    if (event.relatedTarget && !event.currentTarget.contains(event.relatedTarget as Node)) focused.current = null;
  };
  useLayoutEffect(() => {
    const was = focused.current;
    // Focus waiting on the card itself (a chat opened while connecting) moves to its action once there is one (Download).
    const primary = card.current?.querySelector<HTMLElement>("button.primary");
    if (primary && card.current && was === card.current && (card.current.getRootNode() as Document | ShadowRoot).activeElement === card.current) {
      primary.focus();
      return;
    }
    if (!was || was.isConnected) return;
    const root = was.getRootNode() as Document | ShadowRoot;
    const active = root.activeElement;
    // Focus fell with the removed control (to <body>, or nowhere in the shadow root): catch it.
    if (active && active !== document.body) return;
    focused.current = null;
    if (card.current) card.current.focus();
    else onFocusLeft?.();
  });
  const cardProps = { ref: card, tabIndex: -1, onFocus, onBlur };
  const selected = models.find((model) => model.selected);
  // The size the download card announced, for "MB of total" while downloading.
  const [announced, setAnnounced] = useState<number | undefined>();
  if (status.state === "needs-download" && status.bytes !== undefined && status.bytes !== announced) setAnnounced(status.bytes);
  const total = selected?.bytes ?? announced;
  const secondsLeft = useTimeLeft(status.state === "downloading" ? status.progress : undefined);
  const failure = setupError && (
    <p className="alert" role="alert">
      {setupError}
    </p>
  );

  switch (status.state) {
    case "needs-download": {
      const size = status.bytes ?? selected?.bytes;
      return (
        <section className="card" aria-label="Download the model" {...cardProps}>
          <p>
            <strong>{selected?.label ?? "The model"}</strong> runs on this device, after a one-time download
            {size !== undefined && ` of ${formatBytes(size)}`}.
          </p>
          {status.note && <p className="note">{status.note}</p>}
          {failure}
          {onPrepare && (
            <div className="row">
              <button type="button" className="primary" onClick={onPrepare}>
                Download{size !== undefined && ` (${formatBytes(size)})`}
              </button>
            </div>
          )}
        </section>
      );
    }
    case "downloading": {
      const facts = [percent(status.progress)];
      if (total !== undefined) facts.push(formatDownloaded(status.progress, total));
      if (secondsLeft !== undefined) facts.push(formatTimeLeft(secondsLeft));
      return (
        <section className="card" aria-label="Downloading the model" {...cardProps}>
          <p>Downloading {selected?.label ?? "the model"}…</p>
          <progress max={1} value={status.progress} aria-label="Download progress" aria-valuetext={facts.join(", ")} />
          <div className="row">
            <span className="muted" aria-live="polite">
              {facts.join(" · ")}
            </span>
            <button type="button" className="push" onClick={onCancel}>
              Cancel
            </button>
          </div>
          {failure}
        </section>
      );
    }
    case "loading":
      if (status.progress === undefined) {
        return (
          <section className="card" aria-label="Connecting" {...cardProps}>
            <p className="working" role="status">
              <span className="spinner" aria-hidden="true" />
              Connecting…
            </p>
            {failure}
          </section>
        );
      }
      if (status.stage === "starting") {
        // Read from this device; the engine now builds its session and says nothing more until it is ready.
        return (
          <section className="card" aria-label="Starting the model" {...cardProps}>
            <p role="status">Starting the model on this device…</p>
            <progress max={1} aria-label="Starting the model" />
            {failure}
          </section>
        );
      }
      return (
        <section className="card" aria-label="Loading the model" {...cardProps}>
          <p role="status">Loading the model from this device… {percent(status.progress)}</p>
          <progress max={1} value={status.progress} aria-label="Loading progress" />
          {failure}
        </section>
      );
    case "error":
      return (
        <section className="card" aria-label="Setup failed" {...cardProps}>
          <p className="alert" role="alert">
            {setupError ?? status.error}
          </p>
          {onPrepare && (
            <div className="row">
              <button type="button" onClick={onPrepare}>
                Try again
              </button>
            </div>
          )}
        </section>
      );
    default:
      return failure || null;
  }
}
