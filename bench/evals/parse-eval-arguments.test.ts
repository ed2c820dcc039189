import { describe, expect, it } from "vitest";
import { EVAL_USAGE, parseEvalArguments } from "./parse-eval-arguments.js";

describe("parseEvalArguments", () => {
  it("has defaults: no threshold, the report under test-results/", () => {
    expect(parseEvalArguments([])).toEqual({ threshold: 0, json: "test-results/eval-report.json", timeout: 600 });
  });

  it("reads every flag, with = or a separate value; model ids may leave out test-, a threshold may be a percentage", () => {
    expect(parseEvalArguments(["--models", "store-scripted,test-tiny", "--scenarios=buy-trail-socks", "--runs", "3", "--threshold", "80%", "--json", "out.json", "--timeout=30"])).toEqual({
      models: ["test-store-scripted", "test-tiny"],
      scenarios: ["buy-trail-socks"],
      runs: 3,
      threshold: 0.8,
      json: "out.json",
      timeout: 30,
    });
    expect(parseEvalArguments(["--url", "http://localhost:5173/evals.html", "--threshold", "0.9", "--json", "out.json", "--timeout", "30"])).toEqual({ url: "http://localhost:5173/evals.html", threshold: 0.9, json: "out.json", timeout: 30 });
  });

  it("--help (or -h) asks for the usage, which says --timeout is in seconds and which flags a --url page takes", () => {
    expect(parseEvalArguments(["--help"])).toMatchObject({ help: true });
    expect(parseEvalArguments(["-h"])).toMatchObject({ help: true });
    expect(EVAL_USAGE).toMatch(/--timeout 600\s+SECONDS to wait for the whole report/);
    expect(EVAL_USAGE).toMatch(/Any page, this one or yours \(--url\):[\s\S]*--threshold[\s\S]*--json[\s\S]*--timeout/);
  });

  it.each([
    [["--threshold", "1.5"], /--threshold must be a pass rate from 0 to 1/],
    [["--runs", "0"], /--runs must be a positive integer/],
    [["--timeout", "10m"], /--timeout must be a positive number of seconds/],
    [["--models"], /--models needs a value/],
    [["--model", "tiny"], /Unknown argument "--model"; npm run eval -- --help lists them/],
    [["--url", "http://localhost:5173/evals.html", "--models", "tiny", "--runs", "2"], /--models, --runs choose for this project's evals page only; a page at --url runs the models/],
  ])("refuses %j with the usage", (argv, message) => {
    expect(() => parseEvalArguments(argv)).toThrow(message);
    expect(() => parseEvalArguments(argv)).toThrow(/Usage: npm run eval/);
  });
});
