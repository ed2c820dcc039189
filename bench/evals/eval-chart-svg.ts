import type { EvalReport } from "@webmcp-agents/chat/testing";
import { formatBytes } from "../../runtime/errors/format-bytes.js";
import { escapeHtml } from "./escape-html.js";

const COLORS = ["#2f6fdf", "#c0392b", "#1e8449", "#8e44ad", "#b9770e", "#117a8b", "#555"];

/** One model as a point: its pass rate against a measure of it. */
interface Point {
  label: string;
  x: number;
  passRate: number;
  color: string;
}

/** One panel: pass rate (0-100 %) up, `x` across (log scale for sizes), a labelled dot per model. */
function panel(title: string, points: Point[], left: number, width: number, height: number, log: boolean, formatX: (value: number) => string): string {
  const top = 30;
  const bottom = 40;
  const plotLeft = left + 48;
  const plotWidth = width - 64;
  const plotHeight = height - top - bottom;
  const parts = [`<text x="${left + width / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${escapeHtml(title)}</text>`];
  const y = (rate: number) => top + plotHeight - rate * plotHeight;
  for (const rate of [0, 0.5, 1]) {
    parts.push(`<line x1="${plotLeft}" x2="${plotLeft + plotWidth}" y1="${y(rate)}" y2="${y(rate)}" stroke="#ddd"/>`, `<text x="${plotLeft - 6}" y="${y(rate) + 4}" text-anchor="end" font-size="11">${rate * 100} %</text>`);
  }
  if (points.length === 0) {
    parts.push(`<text x="${plotLeft + plotWidth / 2}" y="${top + plotHeight / 2}" text-anchor="middle" font-size="12" fill="#555">No model reported this.</text>`);
    return parts.join("");
  }
  const scale = (value: number) => (log ? Math.log10(Math.max(value, 1)) : value);
  const xs = points.map((point) => scale(point.x));
  let [min, max] = [Math.min(...xs), Math.max(...xs)];
  if (max - min < 1e-9) [min, max] = [min - 1, max + 1];
  const pad = (max - min) * 0.08;
  const x = (value: number) => plotLeft + ((scale(value) - (min - pad)) / (max - min + 2 * pad)) * plotWidth;
  parts.push(`<line x1="${plotLeft}" x2="${plotLeft + plotWidth}" y1="${top + plotHeight}" y2="${top + plotHeight}" stroke="#888"/>`);
  // The extremes only: models of about one size would print their ticks over each other.
  const ticks = [...new Set([Math.min(...points.map((point) => point.x)), Math.max(...points.map((point) => point.x))])];
  for (const tick of ticks) parts.push(`<text x="${x(tick).toFixed(1)}" y="${top + plotHeight + 16}" text-anchor="middle" font-size="10">${escapeHtml(formatX(tick))}</text>`);
  // Named in the legend, not beside the dot: models of one size and rate sit on one spot.
  for (const point of points) {
    parts.push(
      `<circle cx="${x(point.x).toFixed(1)}" cy="${y(point.passRate).toFixed(1)}" r="6" fill="${point.color}" fill-opacity="0.8" stroke="white"><title>${escapeHtml(`${point.label}: ${Math.round(point.passRate * 100)} % at ${formatX(point.x)}`)}</title></circle>`,
    );
  }
  return parts.join("");
}

/** A short name for a chart label: the label without "Test model: ". */
const shortLabel = (label: string) => label.replace(/^Test model: /, "");

/**
 * The report as an SVG chart: pass rate against download size (log scale)
 * and against decode speed (the median over every step), one dot per model
 * that ran. Models without a size (the cloud) or a speed are left out of
 * that panel.
 */
export function evalChartSvg(report: EvalReport): string {
  const width = 960;
  const height = 300;
  const ran = report.results.filter((result) => result.runs > 0);
  const color = (index: number) => COLORS[index % COLORS.length]!;
  const bySize = ran.flatMap((result, index) => (result.model.bytes !== undefined ? [{ label: shortLabel(result.model.label), x: result.model.bytes, passRate: result.passed / result.runs, color: color(index) }] : []));
  const bySpeed = ran.flatMap((result, index) =>
    result.medianDecodeTokensPerSecond !== undefined ? [{ label: shortLabel(result.model.label), x: result.medianDecodeTokensPerSecond, passRate: result.passed / result.runs, color: color(index) }] : [],
  );
  const summary = ran.map((result) => `${shortLabel(result.model.label)}: ${Math.round((result.passed / result.runs) * 100)} %${result.model.bytes !== undefined ? ` at ${formatBytes(result.model.bytes)}` : ""}`).join("; ");
  const legendRows = Math.ceil(ran.length / 3);
  const legend = ran.map((result, index) => {
    const lx = 20 + (index % 3) * (width / 3);
    const ly = height + 14 + Math.floor(index / 3) * 18;
    return `<circle cx="${lx}" cy="${ly - 4}" r="6" fill="${color(index)}"/><text x="${lx + 12}" y="${ly}" font-size="12">${escapeHtml(shortLabel(result.model.label))}</text>`;
  });
  const total = height + 10 + legendRows * 18;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="eval-chart-title" width="100%" viewBox="0 0 ${width} ${total}" font-family="sans-serif" data-points="${bySize.length}">`,
    `<title id="eval-chart-title">Pass rate against download size and decode speed. ${escapeHtml(summary)}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...legend,
    panel("pass rate against download size", bySize, 0, width / 2, height, true, formatBytes),
    panel("pass rate against decode speed (tokens/s)", bySpeed, width / 2, width / 2, height, false, (value) => `${value}`),
    `</svg>`,
  ].join("\n");
}
