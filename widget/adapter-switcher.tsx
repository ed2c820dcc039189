import { useId, type ReactNode } from "react";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import { useChatLabels } from "./chat-labels-context.js";

/** What `<AdapterSwitcher>` takes. */
export interface AdapterSwitcherProps {
  adapters: readonly AgentAdapter[];
  /** The id of the adapter in use. */
  value: string;
  onSelect: (id: string) => void;
  /** While a reply streams: switching would abandon it. */
  disabled?: boolean;
}

/** A labelled `<select>` of the adapters, by their `label`. Renders nothing for fewer than two. */
export function AdapterSwitcher({ adapters, value, onSelect, disabled }: AdapterSwitcherProps): ReactNode {
  const id = useId();
  const labels = useChatLabels();
  if (adapters.length < 2) return null;
  return (
    <span className="switcher">
      <label htmlFor={id}>{labels.runOn}</label>
      <select id={id} value={value} disabled={disabled} onChange={(event) => onSelect(event.currentTarget.value)}>
        {adapters.map((adapter) => (
          <option key={adapter.id} value={adapter.id}>
            {adapter.label}
          </option>
        ))}
      </select>
    </span>
  );
}
