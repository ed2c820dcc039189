import { describe, expect, it } from "vitest";
import { isDamagedCopyError } from "./damaged-copy.js";
import { EngineError } from "./engine-error.js";

describe("isDamagedCopyError", () => {
  it("recognises a file that cannot be read: ONNX Runtime's protobuf failure (as seen from transformers.js in Chromium), and JSON that does not parse", () => {
    expect(isDamagedCopyError(new Error("Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model because protobuf parsing failed."))).toBe(true);
    expect(isDamagedCopyError(new SyntaxError(`Unexpected token 'x', "x{"model_ty"... is not valid JSON`))).toBe(true);
    expect(isDamagedCopyError(new SyntaxError("Unexpected end of JSON input"))).toBe(true);
  });

  it("looks through the wrapping error's cause and detail", () => {
    const wrapped = new EngineError({ code: "load_failed", message: "Could not load the model." }, { cause: new Error("ERROR_CODE: 7, protobuf parsing failed") });
    expect(isDamagedCopyError(wrapped)).toBe(true);
    expect(isDamagedCopyError({ code: "load_failed", message: "x", detail: "Failed to load model because protobuf parsing failed." })).toBe(true);
  });

  it("leaves a good copy the engine cannot run alone: removing it would not help", () => {
    expect(isDamagedCopyError(new Error("The device (webgpu) does not support fp16."))).toBe(false);
    expect(isDamagedCopyError(new Error("Aborted(OOM). Build with -sASSERTIONS for more info."))).toBe(false);
    expect(isDamagedCopyError(new Error("Could not locate file: config.json"))).toBe(false);
  });
});
