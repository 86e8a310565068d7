// Numeric coercion shared by asserts, calc and aggregate, so "12.50" means the same everywhere.

// Plain decimal notation only: hex, binary, "Infinity" and "" are not numbers to a config author.
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number as is; a numeric string (surrounding spaces allowed) parsed; anything else NaN. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = v.trim();
    return NUMERIC.test(s) ? Number(s) : NaN;
  }
  return NaN;
}

