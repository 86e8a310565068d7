// `<config>.recordings.json`: what `pipewright test --record` recorded, per case name, in the shape
// of a case's `http:` and `actions:` (docs: /work/helpers/test-cases-format.md, "Recordings"). It is
// committed beside the config, so it is written redacted and deterministic: every secret value
// (as it is, URL-encoded, hex and base64: the runtime's redactor) becomes "[redacted]" wherever it
// appears (URLs, bodies, headers, keys), credential headers are masked, keys are sorted at every level.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CREDENTIAL_HEADERS, makeRedactor, REDACTED } from '../values/redact.ts';
import { withFileValues, isFileSetting } from '../file-values.ts';
import { urlPassword } from '../environment.ts';
import type { CaseRecording } from './record.ts';

export const FORMAT = 1;
const NOTE = 'written by pipewright test --record; secret values are replaced by [redacted:NAME] (a replay puts the test value back), credential headers by [redacted]';

export interface RecordingsFile { cases: Record<string, CaseRecording> }

/** A secret by name: its value never reaches the file; `[redacted:NAME]` stands in its place, so a
 *  replay can put the case's own value back where the request carried it (a key in a query string). */
export interface NamedSecret { name: string; value: string }

/** The secrets never written: SERVICE__SECRET__<NAME> (files read) and the cases file's `secrets:`.
 *  Shorter than 4 characters are left alone, as the runtime's redaction does (runtime/environment.ts:
 *  every "1" would go). */
export function secretsOf(env: NodeJS.ProcessEnv, caseSecrets: Record<string, unknown> = {}): NamedSecret[] {
  const all = withFileValues(Object.assign(Object.create(null) as NodeJS.ProcessEnv, env));
  const out: NamedSecret[] = [];
  for (const [k, v] of Object.entries(all)) if (k.startsWith('SERVICE__SECRET__') && !isFileSetting(k) && typeof v === 'string') out.push({ name: k.slice('SERVICE__SECRET__'.length), value: v });
  for (const [k, v] of Object.entries(caseSecrets)) if (typeof v === 'string' || typeof v === 'number') out.push({ name: k, value: String(v) });
  // Longest first: a secret that contains another is replaced whole.
  return out.filter((s) => s.value.length >= 4).sort((a, b) => b.value.length - a.value.length);
}

const PLACEHOLDER = /\[redacted:([A-Za-z0-9_]+)\]/g;

/** Every string (and key) with each secret's value, as it is and URL-encoded, replaced by its placeholder. */
function named<T>(v: T, secrets: readonly NamedSecret[]): T {
  const text = (t: string) => secrets.reduce((acc, s) => replaceAll(replaceAll(acc, s.value, `[redacted:${s.name}]`), encodeURIComponent(s.value), `[redacted:${s.name}]`), t);
  return mapStrings(v, text);
}

/** The placeholders replaced by the values a replay uses (`valueOf`), URL-encoded inside `url`
 *  fields; a placeholder without a value stays (its request then matches nothing, and says so). */
export function unredacted<T>(v: T, valueOf: (name: string) => string | undefined): T {
  return mapStrings(v, (t, key) => t.replace(PLACEHOLDER, (m, name: string) => {
    const value = valueOf(name);
    return value === undefined ? m : key === 'url' ? encodeURIComponent(value) : value;
  }));
}

function mapStrings<T>(v: T, f: (t: string, key?: string) => string, key?: string): T {
  if (typeof v === 'string') return f(v, key) as T;
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f)) as T;
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) out[f(k)] = mapStrings(x, f, k);
  return out as T;
}

const replaceAll = (t: string, find: string, by: string) => (find && t.includes(find) ? t.split(find).join(by) : t);

/** Writes the recordings: `recorded` replaces the entries of those cases; entries of other cases
 *  still in `keep` stay as they were (a case recorded earlier, not run this time). Each secret's
 *  value becomes its placeholder; then the runtime's redactor replaces any other form of a secret
 *  (hex, base64, credentials derived from one, the SMTP URL's password) by "[redacted]". */
export function writeRecordings(file: string, recorded: ReadonlyMap<string, CaseRecording>, secrets: readonly NamedSecret[], keep: ReadonlySet<string> = new Set(), env: NodeJS.ProcessEnv = {}): string {
  const old = existsSync(file) ? readRecordings(file).cases : {};
  const cases: Record<string, CaseRecording> = Object.create(null) as Record<string, CaseRecording>;
  for (const [name, r] of Object.entries(old)) if (keep.has(name) && !recorded.has(name)) cases[name] = r;
  for (const [name, r] of recorded) cases[name] = masked(r);
  const residual = makeRedactor([...secrets.map((s) => s.value), ...urlPassword(env.SERVICE__SMTP_URL)]);
  const text = `${stableJson(residual(named({ cases, format: FORMAT, note: NOTE }, secrets)))}\n`;
  writeFileSync(file, text);
  return text;
}

/** Reads a recordings file; throws a message naming the file when it is not one. */
export function readRecordings(file: string): RecordingsFile {
  let v: unknown;
  try { v = JSON.parse(readFileSync(file, 'utf8')); } catch (e) { throw new Error(`${file}: not a recordings file (${(e as Error).message}); record it again with pipewright test --record`); }
  const r = v as { cases?: unknown; format?: unknown };
  if (!r || typeof r !== 'object' || typeof r.cases !== 'object' || r.cases === null) throw new Error(`${file}: not a recordings file (no "cases" mapping); record it again with pipewright test --record`);
  if (r.format !== FORMAT) throw new Error(`${file}: recordings format ${String(r.format)}, this pipewright reads ${FORMAT}: record it again with pipewright test --record`);
  return { cases: r.cases as Record<string, CaseRecording> };
}

/** Credential headers of recorded responses and calls masked (a config may test that one came). */
function masked(r: CaseRecording): CaseRecording {
  const mask = (h: Record<string, string> | undefined) => h && Object.fromEntries(Object.entries(h).map(([k, v]) => [k, CREDENTIAL_HEADERS.has(k.toLowerCase()) ? REDACTED : v]));
  const actions = Object.fromEntries(Object.entries(r.actions).map(([name, calls]) => [name, calls.map((c) => (c.headers ? { ...c, headers: mask(c.headers) } : c))]));
  return { http: r.http.map((x) => ({ request: x.request, response: { ...x.response, headers: mask(x.response.headers)! } })), actions };
}

/** JSON with the keys of every object sorted, 2-space indented. */
export function stableJson(v: unknown): string {
  return JSON.stringify(sorted(v), null, 2);
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(o).sort()) out[k] = sorted(o[k]);
  return out;
}
