// A TCP port and a URL scheme as a config states them (a number, or text after interpolation): one
// rule for the compiler's check of literal values and the runtime's check of interpolated ones.

export const PORT_RULE = 'a whole number from 1 to 65535';

/** The port a value names (a number, or 1 to 5 digits with blanks around), else undefined. */
export function portNumber(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,5}\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : undefined;
}

/** A URL scheme as written without "://" (http, https, grpc). */
export const isUrlScheme = (v: unknown): v is string => typeof v === 'string' && /^[a-z][a-z0-9+.-]{0,31}$/i.test(v);
