import { describe, expect, it } from "vitest";
import { parseBuildArguments } from "./parse-build-arguments.js";

describe("parseBuildArguments", () => {
  it("builds tiny and scripted by default", () => {
    expect(parseBuildArguments([])).toEqual({ ids: ["tiny", "scripted"], force: false, help: false });
  });

  it("adds shaped dtypes to the default pair, or to --only", () => {
    expect(parseBuildArguments(["--shaped", "q8,q4"]).ids).toEqual(["tiny", "scripted", "qwen3-0.6b-shaped-q8", "qwen3-0.6b-shaped-q4"]);
    expect(parseBuildArguments(["--only", "tiny", "--shaped=fp32"]).ids).toEqual(["tiny", "qwen3-0.6b-shaped-fp32"]);
    expect(parseBuildArguments(["--shaped-qwen35", "q8"]).ids).toEqual(["tiny", "scripted", "qwen35-0.8b-shaped-q8"]);
    expect(parseBuildArguments(["--only", "tiny-qwen35,scripted-qwen35"]).ids).toEqual(["tiny-qwen35", "scripted-qwen35"]);
  });

  it("builds everything with --all, in catalog order", () => {
    expect(parseBuildArguments(["--all"]).ids).toEqual([
      "tiny",
      "scripted",
      "tiny-qwen35",
      "scripted-qwen35",
      "qwen3-0.6b-shaped-fp32",
      "qwen3-0.6b-shaped-q8",
      "qwen3-0.6b-shaped-q4",
      "qwen35-0.8b-shaped-fp32",
      "qwen35-0.8b-shaped-q8",
    ]);
  });

  it("reads --force, --root and --help", () => {
    expect(parseBuildArguments(["--only=scripted", "--force", "--root", "/tmp/models"])).toEqual({
      ids: ["scripted"],
      force: true,
      root: "/tmp/models",
      help: false,
    });
    expect(parseBuildArguments(["-h"]).help).toBe(true);
  });

  it("rejects unknown ids, dtypes and flags, and a flag missing its list", () => {
    expect(() => parseBuildArguments(["--only", "huge"])).toThrow('unknown model "huge"');
    expect(() => parseBuildArguments(["--shaped", "fp16"])).toThrow('unknown dtype "fp16"');
    expect(() => parseBuildArguments(["--shaped-qwen35", "q4"])).toThrow('unknown dtype "q4"');
    expect(() => parseBuildArguments(["--fast"])).toThrow('unknown argument "--fast"');
    expect(() => parseBuildArguments(["--only"])).toThrow("--only needs a comma-separated list");
    expect(() => parseBuildArguments(["--only", "--all"])).toThrow("--only needs a comma-separated list");
  });
});
