import { describe, expect, it } from "vitest";
import { evalCli } from "./run-eval-cli.js";
import { EVAL_USAGE } from "./parse-eval-arguments.js";

describe("npm run eval's command line (evalCli)", () => {
  it("--help prints the usage and exits 0, running nothing", async () => {
    const out: string[] = [];
    const errors: string[] = [];
    expect(await evalCli(["--help"], (line) => out.push(line), (line) => errors.push(line))).toBe(0);
    expect(out).toEqual([EVAL_USAGE]);
    expect(errors).toEqual([]);
  });

  it("a wrong argument exits 2 with the sentence and the usage on stderr", async () => {
    const errors: string[] = [];
    expect(await evalCli(["--timeout", "ten"], () => {}, (line) => errors.push(line))).toBe(2);
    expect(errors.join("\n")).toMatch(/^--timeout must be a positive number of seconds[\s\S]*Usage: npm run eval/);
  });
});
