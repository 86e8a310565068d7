// The one redaction applied wherever a value leaves the process or is stored: error responses,
// log lines, the runs table (and GET /_ap/runs/<id>), captures. Every occurrence of a configured
// secret or variable value (and its URL-encoded form, the usual way a secret reaches a query
// string) becomes "[redacted]", and credential headers of the request, of the run's response and of
// each action's response are masked. Nothing else is changed, so a capture still shows what the run did.
import type { RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';

export const REDACTED = '[redacted]';
export const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export type Redactor = <T>(value: T) => T;

/** A redactor for a fixed set of secrets (needles computed once, longest first so a secret
 *  containing another is replaced whole). */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const needles = [...new Set(secrets.flatMap((s) => (s ? [s, encodeURIComponent(s)] : [])))].sort((a, b) => b.length - a.length);
  if (!needles.length) return (v) => v;
  const text = (s: string) => needles.reduce((acc, n) => (acc.includes(n) ? acc.split(n).join(REDACTED) : acc), s);
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number') return text(String(v)) === String(v) ? v : REDACTED;
    if (depth > 256) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, x] of Object.entries(v)) out[text(k)] = walk(x, depth + 1);
      return out;
    }
    return v;
  };
  return <T>(value: T) => walk(value, 0) as T;
}

/** A redacted deep copy of a JSON value: every occurrence of the secrets becomes "[redacted]". */
export function redactSecrets<T>(value: T, secretsSeen: string[]): T {
  return makeRedactor(secretsSeen)(value);
}

const cached = new WeakMap<Environment, Redactor>();

/** The environment's redactor, built once per environment (the secret set is fixed at start). */
export function redactorOf(env: Environment): Redactor {
  let r = cached.get(env);
  if (!r) cached.set(env, (r = makeRedactor(env.sensitiveValues?.() ?? [])));
  return r;
}

function redactHeaders(h: Record<string, unknown> | undefined): void {
  if (!h) return;
  for (const k of Object.keys(h)) if (CREDENTIAL_HEADERS.has(k.toLowerCase())) h[k] = REDACTED;
}

/** The run state as it may be stored. */
export function redactRun(state: RunState, redact: Redactor | string[]): RunState {
  const r = Array.isArray(redact) ? redactSecrets(state, redact) : redact(state);
  // A redactor without secrets returns the same object: copy before masking headers.
  const out = r === state ? (structuredClone(state) as RunState) : r;
  redactHeaders(out.request?.headers);
  redactHeaders(out.response?.headers);
  for (const step of Object.values(out.steps ?? {})) redactHeaders(step.headers);
  return out;
}
