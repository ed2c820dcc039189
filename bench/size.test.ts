/**
 * `npm run size` as a test: the first render of a page with the chat (both
 * adapters, a registered tool, the WebMCP polyfill) stays within BUDGET_KB
 * gzip above React, and the engines stay out of it.
 */
import { build } from "vite";
import { expect, it } from "vitest";
import { BUDGET_KB, ELEMENT_BUDGET_KB, elementSizeConfig, formatSizeReport, sizeConfig, type SizeReport } from "./size.js";

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

it(`ships <web-agents-chat> (dist/element.js, React inside) in at most ${ELEMENT_BUDGET_KB} KB gzip before it renders, the engines apart`, async () => {
  let report: SizeReport | undefined;
  await build({ ...elementSizeConfig((measured) => (report = measured)), configFile: false });
  expect(report).toBeDefined();
  console.log(`<web-agents-chat> first render, gzip -9, React included: ${(report!.firstRender / 1000).toFixed(1)} KB; biggest parts: ${report!.biggestParts.map(([owner, bytes]) => `${owner} ${(bytes / 1000).toFixed(1)} KB`).join(", ")}`);
  expect(report!.firstRender).toBeLessThanOrEqual(ELEMENT_BUDGET_KB * 1000);
  // React is in the file: a page with no bundler has nothing else to bring it.
  expect(report!.biggestParts.map(([owner]) => owner)).toContain("react-dom");
  expect(Object.keys(report!.lazy).some((name) => name.includes("engine-client")), "the engine client loads on use").toBe(true);
}, 120_000);
