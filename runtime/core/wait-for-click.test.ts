// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onAgentEvent, type AgentEvent } from "./agent-events.js";
import { personClick } from "./test-fixtures/happy-dom-webmcp.js";
import { waitForClick } from "./wait-for-click.js";
import { WebAgentsError } from "./web-agents-error.js";

describe("waitForClick", () => {
  let events: AgentEvent[];
  let stop: () => void;
  let button: HTMLButtonElement;

  beforeEach(() => {
    document.body.innerHTML = `<form><button id="buy"><span>Place order</span></button></form>`;
    button = document.querySelector("#buy")!;
    events = [];
    stop = onAgentEvent((event) => events.push(event));
  });
  afterEach(() => stop());

  it("parks, then resumes on the person's click inside the target", async () => {
    let settled = false;
    const wait = waitForClick("#buy", "Click Place order to confirm.", { tool: "place_order" }).then(() => {
      settled = true;
    });
    expect(events).toEqual([{ type: "park", tool: "place_order", prompt: "Click Place order to confirm.", target: button }]);
    personClick(button.querySelector("span")!);
    await wait;
    expect(settled).toBe(true);
    expect(events.at(-1)).toEqual({ type: "resume", tool: "place_order" });
  });

  it("ignores a scripted click, which is not trusted", async () => {
    const controller = new AbortController();
    const wait = waitForClick(button, "Confirm.", { tool: "t", signal: controller.signal }).then(
      () => "released",
      () => "rejected",
    );
    button.click();
    button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    // A trusted click resumes inside its handler: no resume event came.
    expect(events.map((event) => event.type)).toEqual(["park"]);
    controller.abort();
    // A promise settles once: had a scripted click released it, the abort could not reject it.
    await expect(wait).resolves.toBe("rejected");
  });

  it("ignores a click outside the target", async () => {
    const controller = new AbortController();
    const wait = waitForClick(button, "Confirm.", { tool: "t", signal: controller.signal });
    personClick(document.body);
    controller.abort();
    await expect(wait).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects with an AbortError on abort and stops listening", async () => {
    const controller = new AbortController();
    const wait = waitForClick(button, "Confirm.", { tool: "t", signal: controller.signal });
    controller.abort();
    const error = await wait.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: "AbortError" });
    personClick(button);
    expect(events.map((event) => event.type)).toEqual(["park"]);
  });

  it("rejects at once, without parking, when already aborted", async () => {
    await expect(waitForClick(button, "Confirm.", { tool: "t", signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(events).toEqual([]);
  });

  it.each([
    ["#missing", /no element matches "#missing"/],
    ["##", /not a valid CSS selector/],
  ])("rejects with target_not_found for the selector %s", async (selector, message) => {
    const error = await waitForClick(selector, "Confirm.", { tool: "t" }).catch((reason: unknown) => reason);
    expect(WebAgentsError.isInstance(error) && error.code).toBe("target_not_found");
    expect(String((error as Error).message)).toMatch(message);
    expect(events).toEqual([]);
  });

  it("rejects a detached element and an empty prompt", async () => {
    await expect(waitForClick(document.createElement("button"), "Confirm.", { tool: "t" })).rejects.toThrow(
      /not in the document/,
    );
    await expect(waitForClick(button, " ", { tool: "t" })).rejects.toThrow(TypeError);
  });

  it("resolves the selector at call time", async () => {
    const wait = waitForClick("#buy", "Confirm.", { tool: "t" });
    document.body.innerHTML = `<button id="buy">New</button>`;
    personClick(button);
    await wait;
  });
});
