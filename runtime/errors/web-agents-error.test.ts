import { describe, expect, it } from "vitest";
import { EngineError } from "../../worker/engine-error.js";
import { ChatHttpError } from "../server/chat-http-error.js";
import { CHAT_HTTP_ERROR_CODES, ENGINE_ERROR_CODES, isRunErrorCode, RUN_ERROR_CODES } from "./error-codes.js";
import { WebAgentsError } from "./web-agents-error.js";

describe("WebAgentsError, the one base class", () => {
  it("crosses a boundary as { code, message, ...fields } and is rebuilt with its fields", () => {
    const engine = new EngineError({ code: "quota_exceeded", message: "Not enough storage.", neededBytes: 10, freeBytes: 2 }, { cause: new Error("raw") });
    const data = structuredClone(engine.toJSON());
    expect(data).toEqual({ code: "quota_exceeded", message: "Not enough storage.", neededBytes: 10, freeBytes: 2 });
    const rebuilt = WebAgentsError.fromData(data);
    expect(WebAgentsError.isInstance(rebuilt)).toBe(true);
    expect(rebuilt).toMatchObject({ code: "quota_exceeded", message: "Not enough storage.", neededBytes: 10, freeBytes: 2 });
    expect(EngineError.fromData(data)).toMatchObject({ code: "quota_exceeded", neededBytes: 10 });
  });

  it("is the base of the engine's and the server's errors, recognised without instanceof", () => {
    const engine = new EngineError({ code: "worker_died", message: "Stopped." });
    const http = new ChatHttpError(503, "busy", "Busy.");
    for (const error of [engine, http]) expect(WebAgentsError.isInstance(error)).toBe(true);
    expect(EngineError.isInstance(http)).toBe(false);
    // A plain object with the same fields is data, not an instance.
    expect(WebAgentsError.isInstance({ code: "busy", message: "Busy." })).toBe(false);
    expect(WebAgentsError.isData({ code: "busy", message: "Busy." })).toBe(true);
  });

  it("reads an engine code it does not know as a failed generation", () => {
    expect(EngineError.fromData({ code: "from_the_future", message: "?" }).code).toBe("generation_failed");
  });

  it("declares each code list once: a run's codes are the cloud's, the server's refusals and the engine's but aborted", () => {
    for (const code of RUN_ERROR_CODES) expect(isRunErrorCode(code)).toBe(true);
    expect(isRunErrorCode("aborted")).toBe(false);
    expect(isRunErrorCode("nonsense")).toBe(false);
    const sources = new Set<string>([...CHAT_HTTP_ERROR_CODES, ...ENGINE_ERROR_CODES, "network"]);
    for (const code of RUN_ERROR_CODES) expect(sources.has(code), code).toBe(true);
  });
});
