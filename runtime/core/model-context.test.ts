// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getModelContext, isNativeModelContext } from "./model-context.js";
import { installFakeNativeModelContext, installHappyDomWebMCP, resetWebMCP } from "./test-fixtures/happy-dom-webmcp.js";
import { WebAgentsError } from "./web-agents-error.js";

describe("getModelContext", () => {
  beforeAll(installHappyDomWebMCP);
  afterEach(() => {
    vi.unstubAllGlobals();
    resetWebMCP();
  });

  it("installs the polyfill when the browser has no WebMCP, once", () => {
    expect((document as { modelContext?: unknown }).modelContext).toBeUndefined();
    expect(isNativeModelContext()).toBe(false);
    const context = getModelContext();
    expect(typeof context.registerTool).toBe("function");
    expect((document as { modelContext?: unknown }).modelContext).toBe(context);
    expect(getModelContext()).toBe(context);
    expect(isNativeModelContext(context)).toBe(false);
  });

  it("returns a native model context as it is, never replacing it", () => {
    const { context, restore } = installFakeNativeModelContext([]);
    try {
      expect(getModelContext()).toBe(context);
      expect(isNativeModelContext()).toBe(true);
    } finally {
      restore();
    }
  });

  it("throws no_document outside a browser", () => {
    vi.stubGlobal("document", undefined);
    const error = catchError(getModelContext);
    expect(WebAgentsError.isInstance(error) && error.code).toBe("no_document");
    expect((error as Error).message).toMatch(/runs in the browser/);
    expect(isNativeModelContext()).toBe(false);
  });

  it("throws no_webmcp where the polyfill cannot install (an insecure context)", () => {
    vi.stubGlobal("isSecureContext", false);
    const error = catchError(getModelContext);
    expect(WebAgentsError.isInstance(error) && error.code).toBe("no_webmcp");
    expect((error as Error).message).toMatch(/https or localhost/);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
