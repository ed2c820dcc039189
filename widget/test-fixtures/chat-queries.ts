import { act } from "react";

/** The chat's shadow root inside `container`. */
export function chatRoot(container: ParentNode): ShadowRoot {
  const host = container.querySelector("[data-web-agents-ui]");
  if (!host?.shadowRoot) throw new Error("No chat host with a shadow root.");
  return host.shadowRoot;
}

/** The button whose text is `name` (trimmed), or undefined. */
export function findButton(root: ParentNode, name: string): HTMLButtonElement | undefined {
  return [...root.querySelectorAll("button")].find((button) => button.textContent?.trim() === name);
}

/** The button whose text is `name`; throws listing the buttons there are. */
export function button(root: ParentNode, name: string): HTMLButtonElement {
  const found = findButton(root, name);
  if (!found) {
    const names = [...root.querySelectorAll("button")].map((candidate) => candidate.textContent?.trim());
    throw new Error(`No button "${name}"; there are: ${JSON.stringify(names)}`);
  }
  return found;
}

/** Clicks `element` inside `act`. */
export function click(element: HTMLElement): void {
  act(() => element.click());
}

/** Types `text` into the composer as a person would (React sees an input event), inside `act`. */
export function typeInto(field: HTMLTextAreaElement, text: string): void {
  act(() => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")!.set!.call(field, text);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Types `text` into the chat's composer and presses Send. */
export function sendMessage(root: ShadowRoot, text: string): void {
  typeInto(root.querySelector("textarea")!, text);
  click(button(root, "Send"));
}
