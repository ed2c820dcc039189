import { errors, type Page } from "playwright-core";

/**
 * Reads `read()` in the page until `check` holds for it, and returns that
 * value. Between reads it waits in the page for the value to change (compared
 * as JSON on each animation frame, by `page.waitForFunction`), never for a
 * fixed time: `timeoutMs` is only the ceiling for a broken run. `read` runs
 * in the page, so it may name the page's globals but none of the test's
 * variables; `check` runs here and may use anything.
 */
export async function waitForPageValue<T>(page: Page, read: () => T, check: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = (await page.evaluate(read)) as T;
  while (!check(value)) {
    const seen = JSON.stringify(value);
    // An expression, so that `read` is pasted in as written: the page cannot call a function passed as an argument.
    const changed = `(() => { const value = (${read.toString()})(); return JSON.stringify(value) !== ${JSON.stringify(seen)} && { value }; })()`;
    try {
      const handle = await page.waitForFunction(changed, undefined, { timeout: Math.max(1, deadline - Date.now()) });
      value = ((await handle.jsonValue()) as { value: T }).value;
      await handle.dispose();
    } catch (error) {
      if (!(error instanceof errors.TimeoutError)) throw error;
      throw new Error(`Timed out waiting for ${what}: ${String(seen).slice(0, 2000)}`, { cause: error });
    }
  }
  return value;
}
