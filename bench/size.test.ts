/**
 * `npm run size` as a test: the first render of a page with the chat (both
 * adapters, a registered tool, the WebMCP polyfill) stays within BUDGET_KB
 * gzip above React, and the engines stay out of it.
 */
import { build } from "vite";
import { expect, it } from "vitest";
import { BUDGET_KB, formatSizeReport, sizeConfig, type SizeReport } from "./size.js";

it(`ships at most ${BUDGET_KB} KB gzip on the chat's first render, the engine worker apart`, async () => {
  let report: SizeReport | undefined;
  await build({ ...sizeConfig((measured) => (report = measured)), configFile: false });
  expect(report).toBeDefined();
  console.log(formatSizeReport(report!));
  expect(report!.firstRender, formatSizeReport(report!)).toBeLessThanOrEqual(BUDGET_KB * 1000);
  // The on-device adapter starts its worker on first use: the engines are never in the page's chunks.
  expect(Object.keys(report!.worker).some((name) => name.includes("engine-worker")), "the engine worker is built apart").toBe(true);
  expect(Object.keys(report!.lazy).some((name) => name.includes("engine-client")), "the engine client loads on use").toBe(true);
}, 120_000);
