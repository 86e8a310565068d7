// Decimal rounding, half away from zero, on the number's shortest decimal text (what the author
// sees): 1.005 is "1.005", so 2 places gives 1.01, where Math.round(1.005 * 100) / 100 gives 1.
// BigInt carries the digits so large values and many places stay exact.

export const MAX_PLACES = 20;

/** `x` rounded to `places` decimals as a number and as fixed text ("1.50"); null if x is not finite. */
export function roundDecimal(x: number, places: number): { num: number; text: string } | null {
  if (!Number.isFinite(x) || !Number.isInteger(places) || places < 0 || places > MAX_PLACES) return null;
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
  if (!m) return null;
  const digits = m[1] + (m[2] ?? '');
  // Position of the decimal point within `digits`.
  const point = m[1].length + Number(m[3] ?? 0);
  const keep = point + places;
  let kept = 0n;
  if (keep >= 0) {
    const padded = digits.padEnd(keep + 1, '0');
    kept = BigInt(padded.slice(0, keep) || '0') + (padded[keep] >= '5' ? 1n : 0n);
  }
  let text = kept.toString().padStart(places + 1, '0');
  if (places > 0) text = `${text.slice(0, -places)}.${text.slice(-places)}`;
  // No negative zero: -0.001 to 2 places is "0.00".
  if (x < 0 && kept !== 0n) text = `-${text}`;
  return { num: Number(text), text };
}
