/**
 * Where the server side reports what it hides from responses: provider
 * errors, an unreachable counter store, a failed bot check. `console` fits.
 */
export interface ChatLogger {
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}
