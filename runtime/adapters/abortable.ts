/** The rejection {@link abortable} uses: a `DOMException` named `"AbortError"`. */
export const abortError = () => new DOMException("The run was stopped.", "AbortError");

export const isAbortError = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";

/**
 * `promise`, or an `AbortError` as soon as `signal` aborts, whichever comes
 * first. A custom `fetch` or a stream may ignore the signal; racing it keeps
 * Stop prompt anyway. The losing promise's rejection is handled, so nothing
 * surfaces as an unhandled rejection.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
