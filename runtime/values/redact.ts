// The one redaction applied wherever a value leaves the process or is stored: error responses,
// log lines, the runs table (and GET /_ap/runs/<id>), captures. Every occurrence of a configured
// secret or variable value (and its URL-encoded form, the usual way a secret reaches a query
// string) becomes "[redacted]", and credential headers of the request, of the run's response and of
// each action's response are masked. Nothing else is changed, so a capture still shows what the run did.
import type { RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';
import { derivedTexts, derivedVersion, encodedForms, noteSecrets } from './derived-secrets.ts';

export const REDACTED = '[redacted]';
export const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export interface Redactor {
  <T>(value: T): T;
  /** JSON text of the redacted value: one serialisation when it holds no secret. */
  json(value: unknown): string;
  /** Whether a line of JSON text holds none of the secrets, as they are or as JSON escapes them. */
  cleanText(text: string): boolean;
}

/** A redactor for a fixed set of secrets (needles computed once, longest first so a secret
 *  containing another is replaced whole), their hex and base64 forms (a secret inside an encoded
 *  text), and the credentials the runtime derived from them (values/derived-secrets.ts: the needles
 *  are rebuilt when that set changes). */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const base = secrets.flatMap((s) => (s ? [s, encodeURIComponent(s), ...encodedForms(s)] : []));
  if (!base.length) return Object.assign(<T>(v: T) => v, { json: (v: unknown) => JSON.stringify(v), cleanText: () => true });
  noteSecrets(secrets);
  let needles: string[] = [], inJson: string[] = [], textForms: string[] = [];
  let seen = -1;
  const current = () => {
    if (seen === derivedVersion()) return;
    seen = derivedVersion();
    needles = [...new Set([...base, ...derivedTexts()])].sort((a, b) => b.length - a.length);
    // The needles as they appear inside JSON text (strings and keys are escaped there; numbers are not).
    inJson = needles.map((n) => JSON.stringify(n).slice(1, -1));
    // Shortest first: cleanText stops at the first form longer than its text (which cannot hold it),
    // so the request line's short pieces (method, path, duration) test few or none.
    textForms = [...new Set([...needles, ...inJson])].sort((a, b) => a.length - b.length);
  };
  current();
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
  // A string, or a flat object (a log line's fields), is tested directly.
  const holds = (s: string) => needles.some((n) => s.includes(n));
  const flatClean = (v: object): boolean | undefined => {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return undefined;
    for (const k in v) {
      const x: unknown = (v as Record<string, unknown>)[k];
      if (holds(k)) return false;
      if (typeof x === 'string') { if (holds(x)) return false; } else if (typeof x === 'number') { if (holds(String(x))) return false; } else if ((x !== null && typeof x === 'object') || typeof x === 'function') return undefined;
    }
    return true;
  };
  // Most values hold no secret: one native serialisation and a substring test prove it (every
  // string, key and number the walk would rewrite shows in the JSON text), and the value is returned
  // as is. Only a value that may hold one is copied and rewritten.
  const redact = <T>(value: T): T => {
    current();
    if (typeof value === 'string') return text(value) as T;
    const flat = value !== null && typeof value === 'object' ? flatClean(value) : undefined;
    if (flat === true || (flat === undefined && cleanJson(value, inJson) !== undefined)) return value;
    return walk(value, 0) as T;
  };
  return Object.assign(redact, {
    json: (value: unknown) => { current(); return cleanJson(value, inJson) ?? JSON.stringify(walk(value, 0)); },
    cleanText: (t: string) => {
      current();
      for (const n of textForms) {
        if (n.length > t.length) break;
        if (t.includes(n)) return false;
      }
      return true;
    },
  });
}

/** The value's JSON text when it holds none of the needles, else undefined. */
function cleanJson(value: unknown, inJson: readonly string[]): string | undefined {
  let json: string | undefined;
  try { json = JSON.stringify(value); } catch { return undefined; } // a cycle or a bigint: the walk decides
  // Dates and other objects with toJSON serialise differently from the walk's view of them.
  if (json === undefined || (value !== null && typeof value === 'object' && hasToJson(value))) return undefined;
  for (const n of inJson) if (json.includes(n)) return undefined;
  return json;
}

const hasToJson = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === 'function';

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

/** The headers with credential ones masked: the same object when there are none. */
function maskHeaders<H extends Record<string, unknown> | undefined>(h: H): H {
  if (!h) return h;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(h)) if (CREDENTIAL_HEADERS.has(k.toLowerCase())) (out ??= { ...h })[k] = REDACTED;
  return (out ?? h) as H;
}

/** The run state as it may be stored (it may share unchanged parts with `state`: stores serialise
 *  it before the run can change again). */
export function redactRun(state: RunState, redact: Redactor | string[]): RunState {
  // The redactor may return `state` itself: headers are masked on copies, never in place.
  return maskRun(Array.isArray(redact) ? redactSecrets(state, redact) : redact(state));
}

/** The run state with credential headers masked, and the JSON text of it redacted (what a store
 *  writes: serialised once). */
export function redactRunJson(state: RunState, redact: Redactor): { state: RunState; json: string } {
  const masked = maskRun(state);
  return { state: masked, json: redact.json(masked) };
}

function maskRun(r: RunState): RunState {
  const out = { ...r };
  if (r.request) out.request = { ...r.request, headers: maskHeaders(r.request.headers) };
  if (r.response) out.response = { ...r.response, headers: maskHeaders(r.response.headers) };
  if (r.steps) {
    const steps: RunState['steps'] = Object.create(null);
    for (const [k, step] of Object.entries(r.steps)) steps[k] = step.headers ? { ...step, headers: maskHeaders(step.headers) } : step;
    out.steps = steps;
  }
  return out;
}
