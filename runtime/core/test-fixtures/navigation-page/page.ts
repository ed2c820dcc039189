// watchNavigation on a real page, for watch-navigation.browser.test.ts: the
// test starts a navigation of its choice and reads how long `settled` took,
// or whether it resolved at all before the page went (in sessionStorage,
// which the next page of this tab still reads).
import { watchNavigation } from "../../watch-navigation.js";

async function settleAfter(start: string, options: { maxMs: number; abortAfterMs?: number; interceptAll?: boolean; preventAll?: boolean }): Promise<number> {
  if (options.interceptAll) (globalThis as any).navigation.addEventListener("navigate", (event: any) => event.intercept({ handler: async () => {} }));
  if (options.preventAll) (globalThis as any).navigation.addEventListener("navigate", (event: Event) => event.preventDefault());
  const watch = watchNavigation();
  const run = new AbortController();
  if (options.abortAfterMs !== undefined) setTimeout(() => run.abort(), options.abortAfterMs);
  // A tool starts its navigation after it returns, as examples/multi-page/store.js does.
  setTimeout(() => location.assign(start), 20);
  await new Promise((resolve) => setTimeout(resolve, 150));
  const started = performance.now();
  await watch.settled({ maxMs: options.maxMs, signal: run.signal });
  watch.stop();
  const took = Math.round(performance.now() - started);
  sessionStorage.setItem("settled-after", String(took));
  return took;
}

(window as any).harness = { settleAfter };
document.body.dataset.ready = "true";
