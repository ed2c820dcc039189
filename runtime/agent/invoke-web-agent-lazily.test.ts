import { afterEach, describe, expect, it, vi } from "vitest";
import { defineWebAgent } from "./define-web-agent.js";

const agent = defineWebAgent({ id: "shopper", instructions: "You help people shop." });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("agent.invoke", () => {
  it("rejects, never throws, for an empty or non-string message", async () => {
    vi.stubGlobal("document", {});
    for (const text of ["", "   ", undefined, 3]) {
      const run = agent.invoke(text as string);
      expect(run).toBeInstanceOf(Promise);
      await expect(run).rejects.toThrow(TypeError);
      await expect(agent.invoke(text as string)).rejects.toThrow("agent.invoke needs a non-empty message");
    }
  });

  it("rejects on the server, and says to register the agent with createChatHandler", async () => {
    expect(typeof document).toBe("undefined");
    const run = agent.invoke("Reorder my last purchase.");
    await expect(run).rejects.toThrow(Error);
    await expect(run).rejects.toThrow(/browser only.*createChatHandler\(\{ agents \}\)/);
  });

  it("rejects with an AbortError when the signal is already aborted", async () => {
    vi.stubGlobal("document", {});
    const controller = new AbortController();
    controller.abort();
    const error: unknown = await agent.invoke("Reorder.", { signal: controller.signal }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
  });

  it("can be called detached from its agent", async () => {
    const { invoke } = agent;
    await expect(invoke("")).rejects.toThrow("agent.invoke needs a non-empty message");
  });
});
