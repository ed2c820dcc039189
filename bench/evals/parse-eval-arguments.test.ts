import { describe, expect, it } from "vitest";
import { parseEvalArguments } from "./parse-eval-arguments.js";

describe("parseEvalArguments", () => {
  it("has defaults: no threshold, the report under test-results/", () => {
    expect(parseEvalArguments([])).toEqual({ threshold: 0, json: "test-results/eval-report.json", timeout: 600 });
  });

  it("reads every flag, with = or a separate value; model ids may leave out test-, a threshold may be a percentage", () => {
    expect(parseEvalArguments(["--models", "store-scripted,test-tiny", "--scenarios=buy-trail-socks", "--runs", "3", "--threshold", "80%", "--json", "out.json", "--url", "http://localhost:5173/evals.html", "--timeout=30"])).toEqual({
      models: ["test-store-scripted", "test-tiny"],
      scenarios: ["buy-trail-socks"],
      runs: 3,
      threshold: 0.8,
      json: "out.json",
      url: "http://localhost:5173/evals.html",
      timeout: 30,
    });
  });

  it.each([
    [["--threshold", "1.5"], /--threshold must be a pass rate from 0 to 1/],
    [["--runs", "0"], /--runs must be a positive integer/],
    [["--models"], /--models needs a value/],
    [["--model", "tiny"], /Unknown argument "--model"/],
  ])("refuses %j with the usage", (argv, message) => {
    expect(() => parseEvalArguments(argv)).toThrow(message);
    expect(() => parseEvalArguments(argv)).toThrow(/Usage: npm run eval/);
  });
});
