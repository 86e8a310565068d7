// Redaction before a run is stored: every occurrence of a secret value the run read (and its
// URL-encoded form, the usual way a secret reaches a query string), and credential headers of the
// request, of the run's response and of each action's response. Nothing else is changed, so a capture still shows what
// the run did.
import type { RunState } from '../run-state.ts';

export const REDACTED = '[redacted]';
export const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** A redacted deep copy of a JSON value: every occurrence of the secrets becomes "[redacted]". */
export function redactSecrets<T>(value: T, secretsSeen: string[]): T {
  const needles = [...new Set(secretsSeen.flatMap((s) => (s ? [s, encodeURIComponent(s)] : [])))]
    // Longest first, so a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);
  const text = (s: string) => needles.reduce((acc, n) => (acc.includes(n) ? acc.split(n).join(REDACTED) : acc), s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number') return text(String(v)) === String(v) ? v : REDACTED;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, x] of Object.entries(v)) out[text(k)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

function redactHeaders(h: Record<string, unknown> | undefined): void {
  if (!h) return;
  for (const k of Object.keys(h)) if (CREDENTIAL_HEADERS.has(k.toLowerCase())) h[k] = REDACTED;
}

/** The run state as it may be stored. */
export function redactRun(state: RunState, secretsSeen: string[]): RunState {
  const r = redactSecrets(state, secretsSeen);
  redactHeaders(r.request?.headers);
  redactHeaders(r.response?.headers);
  for (const step of Object.values(r.steps ?? {})) redactHeaders(step.headers);
  return r;
}
