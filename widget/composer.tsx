import { useId, useState, type KeyboardEvent, type ReactNode, type Ref } from "react";
import { useChatLabels } from "./chat-labels-context.js";

/** What `<Composer>` takes. */
export interface ComposerProps {
  /** Why a message cannot be sent now; `undefined` when it can. Shown under the field, which is then disabled. */
  blockedBy?: string;
  /** A reply is streaming: Stop replaces Send. */
  streaming: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Default: the chat's `labels.placeholder` (`"Ask about this page…"`). */
  placeholder?: string;
  /** The message field, for the chat to move focus into it. */
  fieldRef?: Ref<HTMLTextAreaElement>;
}

/**
 * The message field. Enter sends, Shift+Enter adds a line, Escape stops a
 * streaming reply. Disabled, with the reason beside it (and linked with
 * `aria-describedby`), whenever the adapter cannot take a message; while a
 * reply streams the person can type ahead, and Stop takes Send's place.
 */
export function Composer({ blockedBy, streaming, onSend, onStop, placeholder, fieldRef }: ComposerProps): ReactNode {
  const labels = useChatLabels();
  const [text, setText] = useState("");
  const fieldId = useId();
  const explainId = useId();
  const blocked = blockedBy !== undefined;
  const canSend = !blocked && !streaming && text.trim() !== "";

  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === "Escape" && streaming) {
      event.preventDefault();
      onStop();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div className="field">
        <label htmlFor={fieldId} className="visually-hidden">
          {labels.message}
        </label>
        <textarea
          ref={fieldRef}
          id={fieldId}
          rows={1}
          value={text}
          placeholder={placeholder ?? labels.placeholder}
          disabled={blocked}
          aria-describedby={blocked ? explainId : undefined}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        {streaming ? (
          <button type="button" onClick={onStop}>
            {labels.stop}
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!canSend}>
            {labels.send}
          </button>
        )}
      </div>
      {blocked && (
        <p id={explainId} className="explain">
          {blockedBy}
        </p>
      )}
    </form>
  );
}
