import { useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode } from "react";
import type { AdapterStatus, ModelChoice } from "../runtime/session/agent-adapter.js";
import { useChatLabels } from "./chat-labels-context.js";
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

/** `text` with the first `part` of it in bold (the model's name in the download card's sentence). */
function emphasize(text: string, part: string | undefined): ReactNode {
  const at = part ? text.indexOf(part) : -1;
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <strong>{part}</strong>
      {text.slice(at + part!.length)}
    </>
  );
}

/**
 * What the adapter needs before it can answer, as a card:
 *
 * - `needs-download`: the size, the adapter's note and a Download button;
 * - `downloading`: a progress bar with percent, MB of total and time left,
 *   and Cancel;
 * - `loading` with progress: a model read from this device, worded as a load
 *   (never as a download); without progress: "Connecting…";
 * - `error`: what failed (the label of its code, over its own message),
 *   with Try again when the adapter can prepare.
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
  const labels = useChatLabels();
  const selected = models.find((model) => model.selected);
  // The size the download card announced, for "MB of total" while downloading.
  const [announced, setAnnounced] = useState<number | undefined>();
  if (status.state === "needs-download" && status.bytes !== undefined && status.bytes !== announced) setAnnounced(status.bytes);
  const total = selected?.bytes ?? announced;
  const secondsLeft = useTimeLeft(status.state === "downloading" ? status.progress : undefined);
  const failure = setupError && (
    <p className="alert" role="alert" lang="en">
      {setupError}
    </p>
  );

  switch (status.state) {
    case "needs-download": {
      const bytes = status.bytes ?? selected?.bytes;
      const size = bytes === undefined ? undefined : labels.size(bytes);
      return (
        <section className="card" aria-label={labels.downloadCard} {...cardProps}>
          <p>{emphasize(labels.downloadIntro(selected?.label, size), selected?.label)}</p>
          {status.note && <p className="note">{status.note}</p>}
          {failure}
          {onPrepare && (
            <div className="row">
              <button type="button" className="primary" onClick={onPrepare}>
                {labels.downloadButton(size)}
              </button>
            </div>
          )}
        </section>
      );
    }
    case "downloading": {
      const facts = [percent(status.progress)];
      if (total !== undefined) facts.push(labels.downloaded(status.progress, total));
      if (secondsLeft !== undefined) facts.push(labels.timeLeft(secondsLeft));
      return (
        <section className="card" aria-label={labels.downloadingCard} {...cardProps}>
          <p>{labels.downloading(selected?.label)}</p>
          <progress max={1} value={status.progress} aria-label={labels.downloadProgress} aria-valuetext={facts.join(", ")} />
          <div className="row">
            <span className="muted" aria-live="polite">
              {facts.join(" · ")}
            </span>
            <button type="button" className="push" onClick={onCancel}>
              {labels.cancel}
            </button>
          </div>
          {failure}
        </section>
      );
    }
    case "loading":
      if (status.progress === undefined) {
        return (
          <section className="card" aria-label={labels.connectingCard} {...cardProps}>
            <p className="working" role="status">
              <span className="spinner" aria-hidden="true" />
              {labels.connecting}
            </p>
            {failure}
          </section>
        );
      }
      if (status.stage === "starting") {
        // Read from this device; the engine now builds its session and says nothing more until it is ready.
        return (
          <section className="card" aria-label={labels.startingCard} {...cardProps}>
            <p role="status">{labels.starting}</p>
            <progress max={1} aria-label={labels.startingCard} />
            {failure}
          </section>
        );
      }
      return (
        <section className="card" aria-label={labels.loadingCard} {...cardProps}>
          <p role="status">{labels.loading(percent(status.progress))}</p>
          <progress max={1} value={status.progress} aria-label={labels.loadingProgress} />
          {failure}
        </section>
      );
    case "error": {
      const explanation = status.code && labels.errors[status.code];
      const detail = setupError ?? status.error;
      return (
        <section className="card" aria-label={labels.setupFailedCard} {...cardProps}>
          <p className="alert" role="alert">
            {explanation || detail}
          </p>
          {/* Under its code's sentence, the failure in the runtime's own words (English). */}
          {explanation && explanation !== detail && (
            <p className="muted" lang="en">
              {detail}
            </p>
          )}
          {onPrepare && (
            <div className="row">
              <button type="button" onClick={onPrepare}>
                {labels.tryAgain}
              </button>
            </div>
          )}
        </section>
      );
    }
    default:
      return failure || null;
  }
}
