import type { BenchPath, BenchResult, PathSummary, Stat } from "./bench-types.js";

const COLORS: Readonly<Record<BenchPath, string>> = { runtime: "#2f6fdf", transformers: "#e08a1e", ort: "#5a9e4b" };

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** One panel: a bar per path (the median) with a min-max whisker. */
function panel(title: string, entries: [BenchPath, Stat][], x: number, width: number, height: number): string {
  const max = Math.max(1e-9, ...entries.map(([, s]) => (Number.isFinite(s.max) ? s.max : 0)));
  const top = 28;
  const plot = height - top - 30;
  const slot = width / Math.max(1, entries.length);
  const parts = [`<text x="${x + width / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${escape(title)}</text>`];
  entries.forEach(([path, s], index) => {
    if (s.n === 0) return;
    const barX = x + index * slot + slot * 0.2;
    const barWidth = slot * 0.6;
    const y = (value: number) => top + plot - (value / max) * plot;
    parts.push(
      `<rect x="${barX.toFixed(1)}" y="${y(s.median).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(top + plot - y(s.median)).toFixed(1)}" fill="${COLORS[path]}"/>`,
      `<line x1="${(barX + barWidth / 2).toFixed(1)}" x2="${(barX + barWidth / 2).toFixed(1)}" y1="${y(s.min).toFixed(1)}" y2="${y(s.max).toFixed(1)}" stroke="#222" stroke-width="1.5"/>`,
      `<text x="${(barX + barWidth / 2).toFixed(1)}" y="${(y(s.median) - 4).toFixed(1)}" text-anchor="middle" font-size="11">${s.median.toFixed(s.median < 10 ? 2 : 0)}</text>`,
      `<text x="${(barX + barWidth / 2).toFixed(1)}" y="${height - 12}" text-anchor="middle" font-size="11">${path}</text>`,
    );
  });
  parts.push(`<line x1="${x}" x2="${x + width}" y1="${top + plot}" y2="${top + plot}" stroke="#888"/>`);
  return parts.join("");
}

/** An SVG chart of a result: first TTFT, TTFT, decode tok/s and warm load per path (medians, min-max whiskers). */
export function resultChartSvg(result: BenchResult): string {
  const entries = Object.entries(result.summary) as [BenchPath, PathSummary][];
  const width = 960;
  const height = 260;
  const quarter = width / 4;
  const title = `${result.model.id} on ${result.config.device}: ${result.config.runs} runs x ${result.config.generations} generations, prompt ${entries[0]?.[1].promptTokens ?? "?"} tok, output ${result.config.outputTokens} tok`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + 24}" viewBox="0 0 ${width} ${height + 24}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="${height + 16}" font-size="11" fill="#555">${escape(title)}</text>`,
    panel("first TTFT after load (ms)", entries.map(([path, s]) => [path, s.firstTtftMs]), 0, quarter, height),
    panel("time to first token (ms)", entries.map(([path, s]) => [path, s.ttftMs]), quarter, quarter, height),
    panel("decode tokens/s", entries.map(([path, s]) => [path, s.decodeTokPerS]), 2 * quarter, quarter, height),
    panel("warm load (ms)", entries.map(([path, s]) => [path, s.loadWarmMs]), 3 * quarter, quarter, height),
    `</svg>`,
  ].join("\n");
}
