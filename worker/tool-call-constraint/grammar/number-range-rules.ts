/** A non-negative decimal as digits: the integer part ("" below 1, no leading zeros) and the fraction (no trailing zeros). */
interface Decimal {
  int: string;
  frac: string;
}

/**
 * The bounds of a JSON Schema number or integer as one inclusive range of
 * decimals with at most `scale` fraction digits: `low` / `high` are the
 * bounds times 10^scale (undefined: none).
 */
export interface NumberRange {
  low?: bigint;
  high?: bigint;
  scale: number;
  integer: boolean;
}

/** Integer digits a magnitude may have past its bounds' (JSON numbers past 16 digits lose their last ones). */
const FREE_DIGITS = 15;
/** Fraction digits a bounded number's bounds are kept to (an exclusive bound moves inside by at most 10^-20). */
const FRACTION_DIGITS = 20;

const float = new Float64Array(1);
const bits = new BigInt64Array(float.buffer);

/** The next double above `value` (toward +Infinity). */
export function nextUp(value: number): number {
  if (Number.isNaN(value) || value === Infinity) return value;
  if (value === 0) return Number.MIN_VALUE;
  float[0] = value;
  bits[0] = bits[0]! + (value > 0 ? 1n : -1n);
  return float[0]!;
}

/** The next double below `value`. */
export function nextDown(value: number): number {
  return -nextUp(-value);
}

/** `value` (finite) times 10^scale, rounded up (`up`) or down: exact, from its shortest round-trip decimal. */
function scaled(value: number, scale: number, up: boolean): bigint {
  const [mantissa, exponentText] = String(Math.abs(value)).split("e");
  const [whole, fraction = ""] = mantissa!.split(".");
  // |value| is digits × 10^(power - scale).
  const digits = BigInt(whole! + fraction);
  const power = Number(exponentText ?? 0) - fraction.length + scale;
  let result: bigint;
  let inexact = false;
  if (power >= 0) result = digits * 10n ** BigInt(power);
  else {
    const divisor = 10n ** BigInt(-power);
    result = digits / divisor;
    inexact = digits % divisor !== 0n;
  }
  if (value < 0) result = -result;
  // Truncation went toward zero: one more step where that was the wrong way.
  if (inexact && up === value > 0) result += up ? 1n : -1n;
  return result;
}

/**
 * A JSON Schema's bounds as one inclusive range of decimals. A number's
 * exclusive bound becomes the next double inside it, rounded inward to 20
 * fraction digits, so no decimal the grammar writes parses onto the excluded
 * bound (and none needs 324 digits to say "above 0"); an integer's moves by
 * one. Stricter than the schema by under 10^-20, never looser.
 */
export function numberRange(schema: Record<string, unknown>, integer: boolean): NumberRange {
  const bound = (key: string) => (typeof schema[key] === "number" && Number.isFinite(schema[key]) ? (schema[key] as number) : undefined);
  const scale = integer ? 0 : FRACTION_DIGITS;
  const lows: bigint[] = [];
  const highs: bigint[] = [];
  // Draft 4 writes `exclusiveMinimum: true` beside `minimum`; 2020-12 gives the excluded bound itself.
  const minimum = bound("minimum");
  const maximum = bound("maximum");
  const exclusiveLow = schema.exclusiveMinimum === true ? minimum : bound("exclusiveMinimum");
  const exclusiveHigh = schema.exclusiveMaximum === true ? maximum : bound("exclusiveMaximum");
  if (minimum !== undefined && schema.exclusiveMinimum !== true) lows.push(scaled(minimum, scale, true));
  if (maximum !== undefined && schema.exclusiveMaximum !== true) highs.push(scaled(maximum, scale, false));
  if (exclusiveLow !== undefined) lows.push(integer ? scaled(Math.floor(exclusiveLow), 0, true) + 1n : scaled(nextUp(exclusiveLow), scale, true));
  if (exclusiveHigh !== undefined) highs.push(integer ? scaled(Math.ceil(exclusiveHigh), 0, false) - 1n : scaled(nextDown(exclusiveHigh), scale, false));
  const range: NumberRange = { scale, integer };
  if (lows.length) range.low = lows.reduce((a, b) => (a > b ? a : b));
  if (highs.length) range.high = highs.reduce((a, b) => (a < b ? a : b));
  return range;
}

/** The decimal digits of `value` / 10^scale (value ≥ 0). */
function decimalOf(value: bigint, scale: number): Decimal {
  const text = value.toString().padStart(scale + 1, "0");
  return { int: text.slice(0, text.length - scale).replace(/^0+/, ""), frac: text.slice(text.length - scale).replace(/0+$/, "") };
}

type Comparison = "lt" | "eq" | "gt";

interface State {
  /** Digits of the integer part read; -1: the fraction. */
  k: number;
  low: Comparison;
  high: Comparison;
  /** Fraction digits read (while a bound is still equal, else capped). */
  q: number;
  /** Only zeros so far (a magnitude that must not be zero). */
  zero: boolean;
}

/**
 * Right-linear EBNF rules for the magnitudes (`int` or `int.frac`, no sign,
 * no exponent, no leading zeros) in `[low, high]` (`high` undefined: none),
 * `nonzero`: zero excluded. Built digit by digit against the bounds' own
 * decimals, so exact at any length: xgrammar 0.1.27's range rule lets
 * 121-129 through for `maximum: 120` and writes `0.01` as `"0" any "0" "1"`.
 * Returns the start rule's name.
 */
function magnitudeRules(rules: Map<string, string>, prefix: string, low: Decimal, high: Decimal | undefined, integer: boolean, nonzero: boolean): string | undefined {
  const maxDigits = high ? high.int.length : Math.max(low.int.length, 1) + FREE_DIGITS;
  const fracLimit = Math.max(low.frac.length, high?.frac.length ?? 0);
  const names = new Map<string, string>();
  const bodies = new Map<string, { accept: boolean; edges: [string, string][] }>();
  // Past the bounds' own fraction digits every state reads alike, save that none is a number before its first digit.
  const key = (state: State) => `${state.k}|${state.low}|${state.high}|${state.k >= 0 ? 0 : Math.min(state.q, Math.max(fracLimit, 1))}|${state.zero}`;

  /** Whether the magnitude read so far, ended here, is in range. */
  const accepts = (state: State): boolean => {
    if (nonzero && state.zero) return false;
    // Nothing read yet (the "0" branch aside): not a number.
    if (state.k === 0 && !state.zero) return false;
    if (state.k >= 0) {
      const low0 = state.k > low.int.length ? "gt" : state.k < low.int.length ? "lt" : state.low;
      const high0 = high ? (state.k < high.int.length ? "lt" : state.high) : "lt";
      return low0 !== "lt" && high0 !== "gt" && !(low0 === "eq" && low.frac.length > 0);
    }
    if (state.q === 0) return false;
    return !(state.low === "eq" && low.frac.length > state.q);
  };

  const visit = (state: State): string | undefined => {
    const id = key(state);
    if (names.has(id)) return names.get(id);
    const name = `${prefix}${names.size}`;
    names.set(id, name);
    const byTarget = new Map<string, string[]>();
    const add = (character: string, next: State | undefined) => {
      if (!next) return;
      const target = visit(next);
      if (!target) return;
      if (!byTarget.has(target)) byTarget.set(target, []);
      byTarget.get(target)!.push(character);
    };
    if (state.k >= 0) {
      for (let digit = 0; digit <= 9; digit++) add(String(digit), intStep(state, digit));
      if (!integer) add(".", pointStep(state));
    } else for (let digit = 0; digit <= 9; digit++) add(String(digit), fracStep(state, digit));
    const edges: [string, string][] = [];
    for (const [target, characters] of byTarget) {
      const digits = characters.filter((character) => character !== ".");
      if (digits.length) edges.push([digitClass(digits.map(Number)), target]);
      if (characters.includes(".")) edges.push(['"."', target]);
    }
    const accept = accepts(state);
    if (!accept && !edges.length) {
      names.set(id, undefined as never);
      return undefined;
    }
    bodies.set(name, { accept, edges });
    return name;
  };

  const intStep = (state: State, digit: number): State | undefined => {
    const { k } = state;
    // A leading zero is the integer part "0" alone (the start rule's own branch): no digit follows it, none starts with it.
    if (k === 0 && (state.zero || digit === 0)) return undefined;
    if (k >= maxDigits) return undefined;
    const compare = (current: Comparison, bound: string): Comparison => (current !== "eq" || k >= bound.length ? current : digit < Number(bound[k]) ? "lt" : digit > Number(bound[k]) ? "gt" : "eq");
    const next: State = { k: k + 1, low: compare(state.low, low.int), high: high ? compare(state.high, high.int) : "lt", q: 0, zero: false };
    // More digits than the lower bound has: above it, whatever follows; more than the upper bound's: too big.
    if (next.k > low.int.length) next.low = "gt";
    if (high && next.k > high.int.length) return undefined;
    return next;
  };

  /** After the integer part: its comparison with each bound decides how the fraction is read. */
  const pointStep = (state: State): State | undefined => {
    if (state.k === 0 && !state.zero) return undefined;
    const low0: Comparison = state.k > low.int.length ? "gt" : state.k < low.int.length ? "lt" : state.low;
    const high0: Comparison = high ? (state.k < high.int.length ? "lt" : state.high) : "lt";
    if (low0 === "lt" || high0 === "gt") return undefined;
    return { k: -1, low: low0, high: high0, q: 0, zero: state.zero };
  };

  const fracStep = (state: State, digit: number): State | undefined => {
    const compare = (current: Comparison, bound: string): Comparison => {
      if (current !== "eq") return current;
      const boundDigit = Number(bound[state.q] ?? "0");
      return digit < boundDigit ? "lt" : digit > boundDigit ? "gt" : "eq";
    };
    const next: State = { k: -1, low: compare(state.low, low.frac), high: high ? compare(state.high, high.frac) : "lt", q: state.q + 1, zero: state.zero && digit === 0 };
    if (next.low === "lt" || next.high === "gt") return undefined;
    if (next.low !== "eq" && next.high !== "eq") next.q = Math.max(1, Math.min(next.q, 1));
    return next;
  };

  // "0" is its own integer part ("" once normalized); any other starts with 1-9.
  const zeroState: State = { k: 0, low: low.int.length === 0 ? "eq" : "lt", high: high ? (high.int.length === 0 ? "eq" : "lt") : "lt", q: 0, zero: true };
  const start = `${prefix}s`;
  const fromZero = visit(zeroState);
  const fromDigit = visit({ k: 0, low: "eq", high: high ? "eq" : "lt", q: 0, zero: false });
  for (const [name, body] of bodies) {
    const alternatives = [...(body.accept ? ['""'] : []), ...body.edges.map(([characters, target]) => `${characters} ${target}`)];
    rules.set(name, alternatives.join(" | "));
  }
  // The zero state reads no digit itself: "0", then what its state allows (a fraction).
  const startAlternatives = [...(fromZero ? [`"0" ${fromZero}`] : []), ...(fromDigit ? [fromDigit] : [])];
  if (!startAlternatives.length) return undefined;
  rules.set(start, startAlternatives.join(" | "));
  return start;
}

function digitClass(digits: number[]): string {
  if (digits.length === 1) return `"${digits[0]}"`;
  const sorted = [...digits].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    ranges.push(end === index ? `${sorted[index]}` : `${sorted[index]}-${sorted[end]}`);
    index = end + 1;
  }
  return `[${ranges.join("")}]`;
}

/**
 * EBNF rules (added to `rules`, names starting with `prefix`) for the JSON
 * numbers in `range`: an optional `-`, no exponent, no `-0`. Returns the
 * start rule's name, or undefined when the range holds no number.
 */
export function numberRangeRules(rules: Map<string, string>, prefix: string, range: NumberRange): string | undefined {
  const { low, high, scale, integer } = range;
  if (low !== undefined && high !== undefined && low > high) return undefined;
  const alternatives: string[] = [];
  if (high === undefined || high >= 0n) {
    const from = low !== undefined && low > 0n ? low : 0n;
    const start = magnitudeRules(rules, `${prefix}p`, decimalOf(from, scale), high === undefined ? undefined : decimalOf(high, scale), integer, false);
    if (start) alternatives.push(start);
  }
  if (low === undefined || low < 0n) {
    const from = high !== undefined && high < 0n ? -high : 0n;
    const start = magnitudeRules(rules, `${prefix}n`, decimalOf(from, scale), low === undefined ? undefined : decimalOf(-low, scale), integer, true);
    if (start) alternatives.push(`"-" ${start}`);
  }
  if (!alternatives.length) return undefined;
  rules.set(prefix, alternatives.join(" | "));
  return prefix;
}
