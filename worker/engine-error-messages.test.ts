import { describe, expect, it } from "vitest";
import { describeEngineError } from "../runtime/adapters/local/describe-engine-error.js";
import { EngineError } from "./engine-error.js";
import { engineErrorMessage, modelDisplayName, modelEngineError, policyBlockMessage } from "./engine-error-messages.js";

const model = "Qwen3 0.6B";
const host = "huggingface.co";

describe("engineErrorMessage: one sentence with a next step per failure, never the engine's words", () => {
  it.each([
    [{ code: "download_failed", reason: "unreachable", host }, "Could not reach huggingface.co to download Qwen3 0.6B. Check your connection and try again."],
    [{ code: "download_failed", reason: "connection_dropped", host }, "The connection to huggingface.co dropped while downloading Qwen3 0.6B. Try again: the download resumes where it stopped."],
    [{ code: "download_failed", reason: "http_status", host, status: 503, file: "onnx/model.onnx" }, "Could not download Qwen3 0.6B: huggingface.co answered HTTP 503 for onnx/model.onnx. Try again later, or use the cloud model."],
    [{ code: "download_failed", reason: "not_a_model_file", host, file: "config.json" }, "Could not download Qwen3 0.6B: huggingface.co sent a web page instead of config.json, so this site does not serve the model. Use the cloud model instead."],
    [{ code: "integrity_failed", reason: "size_mismatch", file: "tokenizer.json" }, "tokenizer.json of Qwen3 0.6B arrived with the wrong size (cut short, or not the expected file), so nothing was kept. Try again."],
    [{ code: "integrity_failed", reason: "hash_mismatch", file: "onnx/model.onnx" }, "onnx/model.onnx of Qwen3 0.6B arrived corrupted (it does not match its sha256), so nothing was kept. Try again."],
    [{ code: "download_failed", reason: "storage_failed" }, "This browser could not save Qwen3 0.6B. Free up some space and try again, or use the cloud model."],
    [{ code: "not_cached", reason: "damaged" }, "The saved copy of Qwen3 0.6B was damaged and has been removed. Download it again."],
    [{ code: "not_cached", reason: "evicted" }, "The browser deleted part of the saved copy of Qwen3 0.6B to free space, so the rest was removed too. Download it again."],
    [{ code: "not_cached" }, "Qwen3 0.6B is not on this device. Download it first."],
    [{ code: "load_failed", reason: "engine_failed" }, "Qwen3 0.6B could not start in this browser. Reload the page and try again, or use the cloud model."],
    [{ code: "quota_exceeded", neededBytes: 2_400_000_000, freeBytes: 300_000_000 }, "Not enough storage for Qwen3 0.6B: it needs 2.4 GB and 300 MB is free. Free up space or choose a smaller model."],
    [
      { code: "quota_exceeded", neededBytes: 764_000_000, freeBytes: 10_700_000_000 },
      "The browser would not store Qwen3 0.6B (764 MB) for this site, though it reports 10.7 GB free: its limit for this site is lower. Try a normal (not private) window, free up space, or choose a smaller model.",
    ],
  ] as const)("%j", (facts, sentence) => {
    expect(engineErrorMessage(facts, model)).toBe(sentence);
  });

  it("has no sentence for a failure without a reason it knows: the caller keeps the error's message", () => {
    expect(engineErrorMessage({ code: "generation_failed" }, model)).toBeUndefined();
    expect(engineErrorMessage({ code: "load_failed" }, model)).toBeUndefined();
  });

  it("names a model by its repo's last part in the worker, and keeps the facts as fields", () => {
    expect(modelDisplayName({ repo: "onnx-community/Qwen3-0.6B-ONNX" })).toBe("Qwen3-0.6B-ONNX");
    const error = modelEngineError({ code: "download_failed", reason: "unreachable", host, detail: "Failed to fetch" }, { repo: "onnx-community/Qwen3-0.6B-ONNX" });
    expect(error.toData()).toEqual({
      code: "download_failed",
      reason: "unreachable",
      host,
      detail: "Failed to fetch",
      message: "Could not reach huggingface.co to download Qwen3-0.6B-ONNX. Check your connection and try again.",
    });
    expect(EngineError.fromData(error.toData()).toData()).toEqual(error.toData());
  });

  it("describeEngineError tells a worker's error again with the label the person knows", () => {
    const data = modelEngineError({ code: "not_cached", reason: "damaged", detail: "Can't create a session. ERROR_CODE: 7" }, { repo: "onnx-community/Qwen3-0.6B-ONNX" }).toData();
    expect(describeEngineError(EngineError.fromData(data), model)).toBe("The saved copy of Qwen3 0.6B was damaged and has been removed. Download it again.");
    // Without a label, the worker's own sentence.
    expect(describeEngineError(EngineError.fromData(data))).toBe("The saved copy of Qwen3-0.6B-ONNX was damaged and has been removed. Download it again.");
  });
});

describe("policyBlockMessage", () => {
  it("says what is blocked and what the site must add where, never the browser's words", () => {
    expect(policyBlockMessage({ directive: "script-src", allow: "'wasm-unsafe-eval'" })).toBe(
      "This site's Content-Security-Policy blocks WebAssembly, which the on-device model runs on: the site must add 'wasm-unsafe-eval' to script-src. Until then, use the cloud model.",
    );
    expect(policyBlockMessage({ directive: "connect-src", allow: "https://huggingface.co" }, "Qwen3 0.6B")).toBe(
      "This site's Content-Security-Policy blocks the download of Qwen3 0.6B from https://huggingface.co: the site must add https://huggingface.co to connect-src. Until then, use the cloud model.",
    );
  });
});
