// @vitest-environment happy-dom
import { act, StrictMode, useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { callModelContextTool } from "../runtime/core/call-model-context-tool.js";
import { defineWebTool } from "../runtime/core/define-web-tool.js";
import { getModelContext } from "../runtime/core/model-context.js";
import { readPageTools } from "../runtime/core/read-page-tools.js";
import { mount, tick, type Mounted } from "./test-fixtures/mount.js";
import { useWebTool } from "./use-web-tool.js";
import { WebAgentsProvider } from "./web-agents-provider.js";

let mounted: Mounted;
beforeEach(() => {
  mounted = mount();
});
afterEach(() => mounted.cleanup());

const names = async () => (await readPageTools()).map((tool) => tool.name).sort();
const textOf = (output: Awaited<ReturnType<typeof callModelContextTool>>) => output.content[0]?.text;

describe("useWebTool", () => {
  it("registers on mount under StrictMode without a duplicate error, calls the latest execute, and unregisters on unmount", async () => {
    const errors = vi.spyOn(console, "error");
    let setLabel: (label: string) => void = () => {};
    function Counter() {
      const [label, set] = useState("first");
      setLabel = set;
      useWebTool({
        name: "read_label",
        description: "Read the label.",
        execute: () => label,
      });
      return <p>{label}</p>;
    }
    mounted.render(<StrictMode><Counter /></StrictMode>);
    await tick();
    expect(await names()).toEqual(["read_label"]);
    expect(textOf(await callModelContextTool({ name: "read_label", input: {} }))).toBe("first");

    // A new execute (a fresh closure) is used without registering again.
    const context = getModelContext();
    const changes = vi.fn();
    context.addEventListener("toolchange", changes);
    act(() => setLabel("second"));
    await tick();
    expect(changes).not.toHaveBeenCalled();
    expect(textOf(await callModelContextTool({ name: "read_label", input: {} }))).toBe("second");

    mounted.render(<></>);
    await tick();
    expect(await names()).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("registers again when the description changes, keeping one tool of that name", async () => {
    function Tool({ description }: { description: string }) {
      useWebTool({ name: "described", description, execute: () => "ok" });
      return null;
    }
    mounted.render(<Tool description="First." />);
    await tick();
    mounted.render(<Tool description="Second." />);
    await tick();
    const tools = await readPageTools();
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([["described", "Second."]]);
  });

  it("takes a tool from defineWebTool, and reports a name another part of the page already registered", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const tool = defineWebTool({ name: "shared_name", description: "One.", execute: () => "one" });
    function Owner() {
      useWebTool(tool);
      return null;
    }
    mounted.render(<><Owner /><Owner /></>);
    await tick();
    expect(await names()).toEqual(["shared_name"]);
    expect(String(errors.mock.calls[0]?.[1])).toMatch(/already registered/);
    errors.mockRestore();
  });
});

describe("WebAgentsProvider", () => {
  const getTime = defineWebTool({ name: "get_time", description: "The time.", execute: () => "noon" });
  const getPage = defineWebTool({ name: "get_page", description: "The page.", execute: () => "home" });

  it("registers its catalog tools while mounted (StrictMode included), not again for an equal array", async () => {
    const errors = vi.spyOn(console, "error");
    mounted.render(<StrictMode><WebAgentsProvider tools={[getTime, getPage]}><p>app</p></WebAgentsProvider></StrictMode>);
    await tick();
    expect(await names()).toEqual(["get_page", "get_time"]);
    expect(mounted.container.textContent).toBe("app");

    const changes = vi.fn();
    getModelContext().addEventListener("toolchange", changes);
    mounted.render(<StrictMode><WebAgentsProvider tools={[getTime, getPage]}><p>app</p></WebAgentsProvider></StrictMode>);
    await tick();
    expect(changes).not.toHaveBeenCalled();

    mounted.render(<WebAgentsProvider tools={[getTime]} />);
    await tick();
    expect(await names()).toEqual(["get_time"]);
    mounted.render(<></>);
    await tick();
    expect(await names()).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});
