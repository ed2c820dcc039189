/**
 * The runtime measured without a model: `<AgentChat>` over
 * `createAgentSession` over `createLocalAdapter` over the real engine client
 * and worker (zero-cost-worker.ts), whose engine emits a scripted reply at
 * the rate each round asks. Per round: CPU per token on the main thread and
 * elsewhere in the renderer (DevTools' metrics, when `npm run bench` gives
 * them), renders per second and per frame, and whether the screen kept up.
 * React is its production build (bench/vite.config.ts), as a site ships it;
 * a render is counted as one batch of DOM changes in the chat's shadow root
 * (a MutationObserver's callback: React commits in one go).
 */
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { AgentChat, createAgentSession, createLocalAdapter, type CatalogEntry } from "@webmcp-agents/chat";
import { createEngineClient } from "../../worker/engine-client.js";
import type { EngineHost, GenerationUsage } from "../../worker/protocol.js";
import { onThisTimeline, sharedNow } from "../shared-clock.js";
import { planText, type ZeroCostTimes } from "./scripted-token-engine.js";
import type { CpuTimes, ZeroCostResult, ZeroCostRound } from "./zero-cost-result.js";

export interface ZeroCostConfig {
  /** Asked rates in tokens per second; 0 is as fast as the worker can. */
  rates: number[];
  /** Seconds of streaming per round at a set rate (the tokens are rate x seconds). */
  seconds: number;
  /** Tokens of the round at 0 (as fast as it can). */
  maxRateTokens: number;
}

export const DEFAULT_ZERO_COST: ZeroCostConfig = { rates: [250, 1000, 2000, 4000, 8000, 0], seconds: 1.5, maxRateTokens: 6000 };

const ENTRY: CatalogEntry = {
  id: "zero-cost",
  label: "Zero-cost engine",
  brief: "bench",
  parameters: 1,
  testModel: true,
  baseUrl: "/",
  variants: [{ id: "wasm-fp32", engine: "transformers", device: "wasm", dtype: "fp32", repo: "zero-cost", requiresShaderF16: false, files: [{ path: "config.json", bytes: 1 }], bytes: 1 }],
};

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Runs the rounds; `cpuTimes` is DevTools' CPU metrics where the page has them. */
export async function runZeroCostBench(config: ZeroCostConfig, log: (line: string) => void, cpuTimes?: () => Promise<CpuTimes>): Promise<ZeroCostResult> {
  const client = createEngineClient({ spawn: () => new Worker(new URL("./zero-cost-worker.ts", import.meta.url), { type: "module" }) });
  let calledAt = 0;
  let usage: (GenerationUsage & ZeroCostTimes) | undefined;
  const engine: EngineHost = {
    ...client,
    generate: (request, onEvent) => {
      calledAt = sharedNow();
      return client.generate(request, (event) => {
        if (event.type === "usage") usage = event.usage as GenerationUsage & ZeroCostTimes;
        onEvent(event);
      });
    },
  };
  const adapter = createLocalAdapter({ catalog: { models: [ENTRY], model: ENTRY.id, autoLoad: false }, worker: { host: engine, threads: 1 }, generation: { maxNewTokens: 1e7, temperature: 0, constrainToolCalls: false } });
  await adapter.prepare();
  const session = createAgentSession(adapter, { storageKey: false });
  const container = document.createElement("div");
  container.style.cssText = "height: 480px; width: 480px; overflow: hidden";
  document.body.append(container);
  const root = createRoot(container);
  let commits = 0;
  let shownLength = 0;
  let wholeAt: number | undefined;
  let expectedLength = Number.POSITIVE_INFINITY;
  const replyLength = () => session.getSnapshot().messages.at(-1)?.parts.reduce((total, part) => total + (part.type === "text" ? part.text.length : 0), 0) ?? 0;
  const onCommit = () => {
    commits++;
    shownLength = session.getSnapshot().messages.at(-1)?.role === "assistant" ? replyLength() : 0;
    if (wholeAt === undefined && shownLength >= expectedLength) wholeAt = performance.now();
  };
  root.render(createElement(AgentChat, { session, storageKey: false, cursor: false }));
  let shadow: ShadowRoot | null | undefined;
  while (!(shadow = container.querySelector("[data-web-agents-ui]")?.shadowRoot)) await nextFrame();
  const observer = new MutationObserver(onCommit);
  observer.observe(shadow, { subtree: true, childList: true, characterData: true, attributes: true });
  const rounds: ZeroCostRound[] = [];
  try {
    for (const rate of config.rates) {
      session.reset();
      await nextFrame();
      await nextFrame();
      const tokens = rate === 0 ? config.maxRateTokens : Math.round(rate * config.seconds);
      usage = undefined;
      wholeAt = undefined;
      expectedLength = Number.POSITIVE_INFINITY;
      let frames = 0;
      let counting = true;
      const countFrames = () => {
        if (!counting) return;
        frames++;
        requestAnimationFrame(countFrames);
      };
      const before = await cpuTimes?.();
      commits = 0;
      requestAnimationFrame(countFrames);
      const sentAt = sharedNow();
      session.send(planText({ tokens, rate }));
      await new Promise<void>((resolve) => {
        const unsubscribe = session.subscribe(() => {
          if (session.getSnapshot().status === "streaming") return;
          unsubscribe();
          resolve();
        });
      });
      // The reply is whole in the session now; it is on the screen at the first commit that shows all of it.
      expectedLength = replyLength();
      if (shownLength >= expectedLength) wholeAt ??= performance.now();
      while (wholeAt === undefined) await nextFrame();
      counting = false;
      const after = await cpuTimes?.();
      const times = usage as (GenerationUsage & ZeroCostTimes) | undefined;
      if (!times || session.getSnapshot().error) throw new Error(`zero-cost round at ${rate} tok/s failed: ${session.getSnapshot().error?.message ?? "no usage"}`);
      const firstTokenAt = onThisTimeline(times.firstTokenAt!);
      const lastTokenAt = onThisTimeline(times.lastTokenAt);
      const streamMs = wholeAt - firstTokenAt;
      const round: ZeroCostRound = {
        askedRate: rate,
        tokens,
        engineRate: times.decodeTokensPerSecond,
        screenRate: (tokens - 1) / (streamMs / 1000),
        lagMs: wholeAt - lastTokenAt,
        mainCpuPerTokenMs: before && after ? (after.mainMs - before.mainMs) / tokens : null,
        otherThreadsCpuPerTokenMs: before && after ? (after.processMs - after.mainMs - (before.processMs - before.mainMs)) / tokens : null,
        mainSplitPerTokenMs:
          before && after
            ? { script: (after.scriptMs - before.scriptMs) / tokens, style: (after.styleMs - before.styleMs) / tokens, layout: (after.layoutMs - before.layoutMs) / tokens }
            : null,
        workerWallPerTokenMs: rate === 0 ? (times.lastTokenAt - times.engineStartedAt) / tokens : null,
        rendersPerSecond: commits / (streamMs / 1000),
        rendersPerFrame: frames > 0 ? commits / frames : commits,
        portMessages: times.portMessages,
        callToEngineMs: times.engineStartedAt - calledAt,
        sendToEngineMs: times.engineStartedAt - sentAt,
        sustained: (rate === 0 || times.decodeTokensPerSecond >= 0.95 * rate) && wholeAt - lastTokenAt <= 100,
      };
      rounds.push(round);
      log(
        `zero-cost ${rate || "max"} tok/s: engine ${round.engineRate.toFixed(0)} tok/s, screen ${round.screenRate.toFixed(0)} tok/s, lag ${round.lagMs.toFixed(0)} ms; ` +
          `main ${round.mainCpuPerTokenMs?.toFixed(4) ?? "-"} ms/token (script ${round.mainSplitPerTokenMs?.script.toFixed(4) ?? "-"}, style ${round.mainSplitPerTokenMs?.style.toFixed(4) ?? "-"}, layout ${round.mainSplitPerTokenMs?.layout.toFixed(4) ?? "-"}), other threads ${round.otherThreadsCpuPerTokenMs?.toFixed(4) ?? "-"} ms/token; ` +
          `${round.rendersPerSecond.toFixed(1)} renders/s (${round.rendersPerFrame.toFixed(2)} a frame), ${round.portMessages} port messages; engine started ${round.callToEngineMs.toFixed(2)} ms after the call`,
      );
    }
  } finally {
    observer.disconnect();
    root.unmount();
    container.remove();
    client.terminate();
  }
  const sustained = rounds.filter((round) => round.sustained && round.askedRate > 0).map((round) => round.askedRate);
  return { rounds, highestSustainedRate: sustained.length ? Math.max(...sustained) : 0, cpuMetrics: cpuTimes !== undefined };
}
