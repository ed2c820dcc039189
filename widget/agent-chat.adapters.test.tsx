// @vitest-environment happy-dom
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import type { AdapterStatus } from "../runtime/session/agent-adapter.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "./agent-chat.js";
import { button, click, sendMessage, typeInto } from "./test-fixtures/chat-queries.js";
import { createModelAdapterDouble } from "./test-fixtures/model-adapter-double.js";
import { tick, waitUntil } from "./test-fixtures/mount.js";
import { reply, useMountedChat } from "./test-fixtures/mounted-chat.js";

// The adapter's status in the chat, the adapter switcher and the model picker; the rest of <AgentChat> is agent-chat.test.tsx's.
const { render, root, text, field } = useMountedChat();

describe("<AgentChat> adapter status", () => {
  const statuses: [AdapterStatus, RegExp][] = [
    [{ state: "unavailable", reason: "Chat isn't configured on this site." }, /Chat isn't configured on this site\./],
    [{ state: "needs-download", bytes: 400_000_000 }, /Download the model above/],
    [{ state: "downloading", progress: 0.25 }, /once the download finishes/],
    [{ state: "loading", progress: 0.5 }, /Loading the model from this device…/],
    [{ state: "loading" }, /Connecting…/],
    [{ state: "error", error: "WebGPU device lost." }, /could not start: WebGPU device lost\./],
  ];

  it.each(statuses)("explains %j in the composer and disables it", (status, explanation) => {
    const adapter = createScriptedAdapter({ runs: [], status });
    render(<AgentChat adapter={adapter} storageKey={false} />);
    const explain = root().querySelector(".explain")!;
    expect(explain.textContent).toMatch(explanation);
    expect(field().disabled).toBe(true);
    expect(field().getAttribute("aria-describedby")).toBe(explain.id);
    expect(button(root(), "Send").disabled).toBe(true);
  });

  it("is ready: no explanation, and Send sends", async () => {
    const adapter = createScriptedAdapter({ runs: [reply("Hello!")] });
    render(<AgentChat adapter={adapter} storageKey={false} />);
    expect(root().querySelector(".explain")).toBeNull();
    expect(field().disabled).toBe(false);
    expect(button(root(), "Send").disabled).toBe(true);
    sendMessage(root(), "hi");
    await waitUntil(() => text().includes("Hello!"));
    expect(field().value).toBe("");
    expect(root().querySelector('[data-role="user"]')?.textContent).toContain("hi");
  });

  it("sends with Enter and adds a line with Shift+Enter", async () => {
    const adapter = createScriptedAdapter({ runs: [reply("Got it.")] });
    render(<AgentChat adapter={adapter} storageKey={false} />);
    typeInto(field(), "two\nlines");
    act(() => {
      field().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", shiftKey: true, bubbles: true }));
    });
    expect(adapter.requests).toHaveLength(0);
    act(() => {
      field().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    await waitUntil(() => text().includes("Got it."));
    expect(adapter.requests[0]!.messages[0]!.parts).toEqual([{ type: "text", text: "two\nlines" }]);
  });

  it("shows the download card for needs-download: size, note, and a Download button that calls prepare", async () => {
    const local = createModelAdapterDouble([], { note: "No WebGPU in this browser: the model runs on the processor (CPU)." });
    render(<AgentChat adapter={local} storageKey={false} />);
    const card = root().querySelector('[aria-label="Download the model"]')!;
    expect(card.textContent).toContain("Qwen3 0.6B runs on this device, after a one-time download of 400 MB.");
    expect(card.textContent).toContain("No WebGPU in this browser: the model runs on the processor (CPU).");
    click(button(root(), "Download (400 MB)"));
    expect(local.prepareSignal).toBeInstanceOf(AbortSignal);
    expect(text()).toContain("Downloading Qwen3 0.6B…");
  });

  it("shows download progress with percent, MB of total and time left, and Cancel aborts the signal", async () => {
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);
    const local = createModelAdapterDouble();
    render(<AgentChat adapter={local} storageKey={false} />);
    click(button(root(), "Download (400 MB)"));
    expect(text()).toContain("0% · 0 of 400 MB");
    now += 10_000;
    act(() => local.progress(0.1));
    const card = root().querySelector('[aria-label="Downloading the model"]')!;
    expect(card.querySelector("progress")?.getAttribute("value")).toBe("0.1");
    // 10% took 10 s, so the other 90% takes about 90 s.
    expect(card.textContent).toContain("10% · 40 of 400 MB · about 2 min left");
    const signal = local.prepareSignal!;
    click(button(root(), "Cancel"));
    expect(signal.aborted).toBe(true);
    await tick();
    expect(root().querySelector('[aria-label="Download the model"]')).not.toBeNull();
  });

  it("words a load from this device as a load, never as a download", () => {
    const adapter = createScriptedAdapter({ runs: [], status: { state: "loading", progress: 0.4 } });
    render(<AgentChat adapter={adapter} storageKey={false} />);
    expect(text()).toContain("Loading the model from this device… 40%");
    expect(text()).not.toMatch(/download/i);
    expect(root().querySelector('progress[aria-label="Loading progress"]')).not.toBeNull();
  });

  it("shows a setup error with Try again that calls prepare again", () => {
    const local = createModelAdapterDouble();
    local.setStatus({ state: "error", error: "The download was interrupted." });
    render(<AgentChat adapter={local} storageKey={false} />);
    expect(root().querySelector('[aria-label="Setup failed"]')?.textContent).toContain("The download was interrupted.");
    click(button(root(), "Try again"));
    expect(local.prepareSignal).toBeDefined();
  });
});

describe("<AgentChat> a chat that cannot run", () => {
  it("shows the reason in the empty conversation instead of the invitation", () => {
    const reason = "Chat isn't configured on this site.";
    const adapter = createScriptedAdapter({ runs: [], status: { state: "unavailable", reason } });
    render(<AgentChat adapter={adapter} storageKey={false} emptyText="Ask me to find, add or order something." />);
    expect(root().querySelector(".log .empty")?.textContent).toBe(reason);
    expect(text()).not.toContain("Ask me to find");
    expect(field().disabled).toBe(true);
    // Once it can run, the invitation is back.
    act(() => adapter.setStatus({ state: "ready" }));
    expect(root().querySelector(".log .empty")?.textContent).toBe("Ask me to find, add or order something.");
  });
});

describe("<AgentChat> adapters and models", () => {
  it("switches adapters with a labelled select and remembers the choice by id", () => {
    const cloud = createScriptedAdapter({ id: "cloud", label: "Claude (cloud)", runs: [] });
    const local = createModelAdapterDouble();
    render(<AgentChat adapters={[cloud, local]} />);
    const select = root().querySelector("select")!;
    expect(root().querySelector(`label[for="${select.id}"]`)?.textContent).toBe("Run on");
    expect([...select.options].map((option) => option.textContent)).toEqual(["Claude (cloud)", "On this device"]);
    expect(select.value).toBe("cloud");
    act(() => {
      select.value = "on-device";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(text()).toContain("Download (400 MB)");
    expect(localStorage.getItem("web-agents:chat:adapter")).toBe("on-device");

    render(<></>);
    render(<AgentChat adapters={[cloud, local]} />);
    expect(root().querySelector("select")!.value).toBe("on-device");
  });

  it("lists models with label, brief, size, cached, recommended and selected; picking one calls selectModel", async () => {
    const local = createModelAdapterDouble();
    render(<AgentChat adapter={local} storageKey={false} />);
    const picker = root().querySelector(".models")!;
    expect(picker.querySelector("summary")?.textContent).toContain("Model: Qwen3 0.6B");
    const options = [...picker.querySelectorAll("label.model")].map((label) => label.textContent);
    expect(options[0]).toBe("Qwen3 0.6BRecommended400 MB downloadFast, for simple pages.");
    expect(options[1]).toBe("Qwen3 1.7B1.2 GB downloadBetter at many-step tasks.");
    const radios = [...picker.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(radios.map((radio) => radio.checked)).toEqual([true, false]);
    click(radios[1]!);
    await tick();
    expect(local.selected).toEqual(["large"]);
    expect(radios.map((radio) => radio.checked)).toEqual([false, true]);
    expect(text()).toContain("Download (1.2 GB)");
  });

  it("closes the model picker on a choice, whether it opened itself or the person opened it", async () => {
    const local = createModelAdapterDouble();
    render(<AgentChat adapter={local} storageKey={false} />);
    const picker = root().querySelector<HTMLDetailsElement>(".models")!;
    // Open by itself before the first download.
    expect(picker.open).toBe(true);
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!);
    await tick();
    expect(local.selected).toEqual(["large"]);
    expect(picker.open).toBe(false);
    // Opened by the person, closed by the next choice.
    act(() => {
      picker.open = true;
      picker.dispatchEvent(new Event("toggle"));
    });
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[0]!);
    await tick();
    expect(local.selected).toEqual(["large", "small"]);
    expect(picker.open).toBe(false);
  });

  it("says why a model switch is refused while the remembered model is starting, instead of ignoring the click", async () => {
    const local = createModelAdapterDouble();
    local.setStatus({ state: "loading", progress: 1, stage: "starting" });
    render(<AgentChat adapter={local} storageKey={false} />);
    local.failNextSelect("The model is still starting on this device. Switch models once it is ready.");
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!);
    await tick();
    expect(local.selected).toEqual(["large"]);
    const card = root().querySelector('[aria-label="Starting the model"]')!;
    expect(card.querySelector('[role="alert"]')?.textContent).toBe("The model is still starting on this device. Switch models once it is ready.");
  });

  it("shows a cached model as on this device, and a failed switch as an alert", async () => {
    const local = createModelAdapterDouble();
    render(<AgentChat adapter={local} storageKey={false} />);
    click(button(root(), "Download (400 MB)"));
    act(() => local.finish());
    await tick();
    expect(root().querySelector("label.model")?.textContent).toContain("On this device");
    expect(field().disabled).toBe(false);
    local.failNextSelect("Wait for the reply to finish before switching models.");
    click(root().querySelectorAll<HTMLInputElement>('input[type="radio"]')[1]!);
    await tick();
    expect(root().querySelector('[role="alert"]')?.textContent).toBe("Wait for the reply to finish before switching models.");
  });
});
