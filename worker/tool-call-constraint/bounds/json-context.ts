import type { Forbidden } from "./json-string-frame.js";

/** Where a single reading stands, for choosing which tokens to check (bounds-restriction.ts). */
export interface JsonContext {
  space: number;
  string?: { count: number; min: number; max: number; escape: number; forbid: number; literal: boolean };
  /** The innermost array with bounds on its items (arrays nested in it may have none). */
  array?: { count: number; min: number; max: number };
  /**
   * Some array with bounds is at one: its next item would be its last
   * allowed, or it has too few to close. One token may end the item being
   * written and add the next (`[],`, `12,`), or close the values nested in
   * it first (`]],`), so tokens holding a separator must be tried.
   */
  arrayEdge: boolean;
  /** A value may start in the next token whose start could already break a bound (a bounded string or array). */
  boundedValue: boolean;
  /** The string's forbidden closer. */
  forbidden?: Forbidden;
}
