import { describe, expect, it } from "vitest";
import type { EvalReport } from "@webmcp-agents/chat/testing";

type EvalModelResult = EvalReport["results"][number];
import { evalChartSvg } from "./eval-chart-svg.js";

const result = (id: string, passed: number, bytes?: number, decode?: number): EvalModelResult => ({
  model: { id, label: `Test model: ${id}`, adapter: "local", ...(bytes !== undefined && { bytes }) },
  runs: 4,
  passed,
  scenarios: [],
  ...(decode !== undefined && { medianDecodeTokensPerSecond: decode }),
});
const report = (results: EvalModelResult[]): EvalReport => ({
  format: "web-agents-eval/1",
  startedAt: "2026-12-02T01:00:00.000Z",
  durationMs: 1,
  runtime: { version: "0.1.0" },
  environment: {},
  scenarios: [],
  results,
  passRate: 0,
});

describe("evalChartSvg", () => {
  it("plots each model's pass rate against its size and its speed, leaves out a model without a size from that panel, and names every model", () => {
    const svg = evalChartSvg(report([result("small", 1, 400_000_000, 30), result("large", 4, 1_200_000_000, 12), result("cloud", 3)]));
    expect(svg).toContain('data-points="2"');
    expect(svg).toContain("small: 25 % at 400 MB");
    expect(svg).toContain("large: 100 % at 1.2 GB");
    expect(svg).toContain("large: 100 % at 12");
    // The legend names all three, the cloud model included.
    expect(svg.match(/<text[^>]*font-size="12">(small|large|cloud)<\/text>/g)).toHaveLength(3);
    expect(svg).toContain("<title id=\"eval-chart-title\">Pass rate against download size and decode speed. small: 25 % at 400 MB; large: 100 % at 1.2 GB; cloud: 75 %</title>");
  });

  it("says so in a panel no model reported, and leaves out models that did not run", () => {
    const svg = evalChartSvg(report([{ ...result("broken", 0), runs: 0, error: { message: "no" } }]));
    expect(svg).toContain('data-points="0"');
    expect(svg.match(/No model reported this\./g)).toHaveLength(2);
  });
});
