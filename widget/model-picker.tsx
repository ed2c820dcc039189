import { useId, useState, type ReactNode } from "react";
import type { ModelChoice } from "../runtime/session/agent-adapter.js";
import { useChatLabels } from "./chat-labels-context.js";

/** What `<ModelPicker>` takes. */
export interface ModelPickerProps {
  models: readonly ModelChoice[];
  /** Called with the id of the model the person picks. */
  onSelect: (id: string) => void;
  /** The id being switched to, while the switch runs. */
  pending?: string;
  /** While a reply streams or a download runs: `selectModel` would reject. */
  disabled?: boolean;
  /** Start unfolded (before the first download, when the choice matters most). */
  open?: boolean;
}

/**
 * The adapter's models as a group of radio buttons in a fold: each with its
 * label, brief, size, whether it is on this device, and whether it is the
 * recommended one; the selected one checked. Renders nothing for fewer than
 * two models. The fold closes on a choice: open, it takes most of the chat.
 */
export function ModelPicker({ models, onSelect, pending, disabled, open = false }: ModelPickerProps): ReactNode {
  const name = useId();
  const labels = useChatLabels();
  // Controlled, and kept in step with the person's own toggles, so a choice can close it.
  const [unfolded, setUnfolded] = useState(open);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setUnfolded(true);
  }
  if (models.length < 2) return null;
  const selected = models.find((model) => model.selected);
  return (
    <details className="models" open={unfolded} onToggle={(event) => setUnfolded(event.currentTarget.open)}>
      <summary>
        {labels.modelPicker(selected?.label)}
        {pending !== undefined && <span className="muted"> {labels.switchingModel}</span>}
      </summary>
      <fieldset disabled={disabled}>
        <legend className="visually-hidden">{labels.chooseModel}</legend>
        {models.map((model) => (
          <label key={model.id} className="model">
            <input
              type="radio"
              name={name}
              value={model.id}
              checked={model.selected === true}
              onChange={() => {
                setUnfolded(false);
                onSelect(model.id);
              }}
            />
            <span>
              <strong>{model.label}</strong>
              {model.recommended && <span className="badge">{labels.recommended}</span>}
              {model.cached ? (
                <span className="badge">{labels.onThisDevice}</span>
              ) : (
                model.bytes !== undefined && <span className="badge">{labels.modelDownload(labels.size(model.bytes))}</span>
              )}
            </span>
            <span className="brief">{model.brief}</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
