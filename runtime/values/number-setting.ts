// A numeric SERVICE__* setting read at start: unset or empty gives the default; anything else must be
// a number (a whole one when asked) within its bounds, or the start stops with one line naming it.
export interface NumberSetting { min: number; max?: number; whole?: boolean }

export function numberSetting(env: Record<string, string | undefined>, name: string, dflt: number, o: NumberSetting): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  const kind = o.whole ? 'a whole number' : 'a number';
  if (!(o.whole ? Number.isInteger(n) : Number.isFinite(n)) || n < o.min || (o.max !== undefined && n > o.max)) {
    throw new Error(`${name}=${raw} must be ${kind} ${o.max === undefined ? `of at least ${o.min}` : `between ${o.min} and ${o.max}`}`);
  }
  return n;
}
