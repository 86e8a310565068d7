// Compares two JSON Schemas of one place in an API (a request body, a parameter, a response body).
// A request schema may not narrow what it accepts (a client's valid request would be refused); a
// response schema may not widen what it produces or drop what it promised (a client's parsing breaks).
// Rules follow oasdiff's request-/response-property checks; what a schema cannot tell is left alone.
import type { Change, Level } from './changes.ts';

type Schema = Record<string, unknown>;
export type Direction = 'request' | 'response';

export interface SchemaSite {
  operation: string;
  /** The prefix of `at` for changes found here: `body`, `query.limit`, `response 200 body`. */
  at: string;
  direction: Direction;
  /** Resolves a `$ref` in the old (`old`) or new (`new`) document. */
  resolve: (side: 'old' | 'new', s: unknown) => Schema | undefined;
}

const MAX_DEPTH = 32;
const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;

/** The JSON types a schema admits, or undefined for "any". */
function typesOf(s: Schema): Set<string> | undefined {
  if (Array.isArray(s.enum)) return new Set((s.enum as unknown[]).map(jsonType));
  if ('const' in s) return new Set([jsonType(s.const)]);
  const t = s.type;
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return undefined;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function admits(set: Set<string> | undefined, t: string): boolean {
  return set === undefined || set.has(t) || (t === 'integer' && set.has('number'));
}

/** Types `wide` admits that `narrow` does not (an empty list when narrow admits all of wide). */
function lost(wide: Set<string> | undefined, narrow: Set<string> | undefined): string[] {
  const from = wide ?? new Set(TYPES);
  return [...from].filter((t) => !admits(narrow, t));
}

const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;

export function diffSchema(oldRaw: unknown, newRaw: unknown, site: SchemaSite, out: Change[]): void {
  walk(oldRaw, newRaw, site.at, 0, site, out, new Set());
}

function walk(oldRaw: unknown, newRaw: unknown, at: string, depth: number, site: SchemaSite, out: Change[], seen: Set<string>): void {
  if (depth > MAX_DEPTH) return;
  const o = site.resolve('old', oldRaw);
  const n = site.resolve('new', newRaw);
  if (!o || !n) return;
  // A recursive schema ($ref back to itself) stops where the same pair of $refs is already open.
  const key = `${refOf(oldRaw)}|${refOf(newRaw)}`;
  if (key !== '|' && seen.has(key)) return;
  if (key !== '|') seen.add(key);
  try { compare(o, n, at, depth, site, out, seen); } finally { if (key !== '|') seen.delete(key); }
}

function compare(o: Schema, n: Schema, at: string, depth: number, site: SchemaSite, out: Change[], seen: Set<string>): void {
  const req = site.direction === 'request';
  const add = (id: string, level: Level, message: string) => out.push({ id: `${site.direction}-${id}`, level, operation: site.operation, at, message });

  const ot = typesOf(o);
  const nt = typesOf(n);
  // Request: types the old schema took and the new one refuses. Response: types it may now send.
  const gone = req ? lost(ot, nt) : lost(nt, ot);
  if (gone.length && !(Array.isArray(o.enum) || Array.isArray(n.enum))) {
    add('type-changed', 'breaking', req
      ? `no longer accepts ${gone.join(', ')} (was ${describe(ot)}, now ${describe(nt)})`
      : `may now be ${gone.join(', ')} (was ${describe(ot)}, now ${describe(nt)})`);
  }
  enums(o, n, req, add);
  bounds(o, n, req, add);
  if (o.pattern !== n.pattern && typeof n.pattern === 'string') {
    add(o.pattern === undefined ? 'pattern-added' : 'pattern-changed', req ? 'warning' : 'info',
      `${o.pattern === undefined ? 'now must match' : `pattern changed from ${JSON.stringify(o.pattern)} to`} ${JSON.stringify(n.pattern)}`);
  }
  if (o.format !== n.format && typeof n.format === 'string' && req) add('format-changed', 'warning', `format is now ${JSON.stringify(n.format)}`);
  properties(o, n, at, depth, site, out, seen, add);
  if (Object.hasOwn(o, 'items') || Object.hasOwn(n, 'items')) walk(o.items ?? {}, n.items ?? {}, `${at}[]`, depth + 1, site, out, seen);
}

function refOf(s: unknown): string {
  return s && typeof s === 'object' && typeof (s as Schema).$ref === 'string' ? (s as Schema).$ref as string : '';
}

function describe(t: Set<string> | undefined): string {
  return t ? [...t].join('|') : 'any';
}

type Add = (id: string, level: Level, message: string) => void;

function enums(o: Schema, n: Schema, req: boolean, add: Add): void {
  const oe = Array.isArray(o.enum) ? (o.enum as unknown[]).map((v) => JSON.stringify(v)) : undefined;
  const ne = Array.isArray(n.enum) ? (n.enum as unknown[]).map((v) => JSON.stringify(v)) : undefined;
  if (req) {
    if (ne && !oe) add('enum-added', 'breaking', `now only accepts ${ne.join(', ')}`);
    else if (ne && oe) {
      const removed = oe.filter((v) => !ne.includes(v));
      if (removed.length) add('enum-value-removed', 'breaking', `no longer accepts ${removed.join(', ')}`);
    }
  } else if (oe) {
    if (!ne) add('enum-removed', 'breaking', 'may now be any value (was one of a list)');
    else {
      const added = ne.filter((v) => !oe.includes(v));
      if (added.length) add('enum-value-added', 'warning', `may now be ${added.join(', ')}`);
    }
  }
}

function bounds(o: Schema, n: Schema, req: boolean, add: Add): void {
  // A request bound that tightens refuses what was valid; a response bound that loosens may send
  // what a client did not expect (a warning: most clients do not check bounds).
  for (const k of LOWER) {
    const ov = num(o[k]); const nv = num(n[k]);
    if (nv !== undefined && (ov === undefined || nv > ov) && req) add(`${kebab(k)}-increased`, 'breaking', `${k} is now ${nv}${ov === undefined ? '' : ` (was ${ov})`}`);
    if (ov !== undefined && (nv === undefined || nv < ov) && !req) add(`${kebab(k)}-decreased`, 'warning', `${k} is now ${nv ?? 'unset'} (was ${ov})`);
  }
  for (const k of UPPER) {
    const ov = num(o[k]); const nv = num(n[k]);
    if (nv !== undefined && (ov === undefined || nv < ov) && req) add(`${kebab(k)}-decreased`, 'breaking', `${k} is now ${nv}${ov === undefined ? '' : ` (was ${ov})`}`);
    if (ov !== undefined && (nv === undefined || nv > ov) && !req) add(`${kebab(k)}-increased`, 'warning', `${k} is now ${nv ?? 'unset'} (was ${ov})`);
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function properties(o: Schema, n: Schema, at: string, depth: number, site: SchemaSite, out: Change[], seen: Set<string>, add: Add): void {
  const op = props(o); const np = props(n);
  const oreq = new Set(strings(o.required)); const nreq = new Set(strings(n.required));
  const req = site.direction === 'request';
  const child = (name: string) => `${at}.${name}`;
  const addAt = (name: string, id: string, level: Level, message: string) =>
    out.push({ id: `${site.direction}-${id}`, level, operation: site.operation, at: child(name), message });
  for (const name of new Set([...Object.keys(op), ...Object.keys(np), ...oreq, ...nreq])) {
    const inOld = Object.hasOwn(op, name) || oreq.has(name);
    const inNew = Object.hasOwn(np, name) || nreq.has(name);
    if (req) {
      if (nreq.has(name) && !oreq.has(name)) addAt(name, inOld ? 'property-became-required' : 'required-property-added', 'breaking', inOld ? 'became required' : 'new required field');
      else if (!inOld && inNew) addAt(name, 'property-added', 'info', 'new optional field');
      if (inOld && !inNew) addAt(name, 'property-removed', n.additionalProperties === false ? 'breaking' : 'info',
        n.additionalProperties === false ? 'removed, and other fields are refused' : 'no longer described');
    } else {
      if (oreq.has(name) && !nreq.has(name)) addAt(name, inNew ? 'property-became-optional' : 'required-property-removed', 'breaking', inNew ? 'may now be missing (was required)' : 'no longer described (was required)');
      else if (inOld && !inNew) addAt(name, 'property-removed', 'warning', 'removed');
      else if (!inOld && inNew) addAt(name, 'property-added', 'info', 'new field');
    }
    if (Object.hasOwn(op, name) && Object.hasOwn(np, name)) walk(op[name], np[name], child(name), depth + 1, site, out, seen);
  }
  // Unknown fields refused where they were taken: a request that carried extra fields now fails.
  if (req && o.additionalProperties !== false && n.additionalProperties === false && typesOf(n)?.has('object')) {
    add('additional-properties-refused', 'breaking', 'fields not listed are now refused');
  }
}

function props(s: Schema): Record<string, unknown> {
  const p = s.properties;
  return p && typeof p === 'object' && !Array.isArray(p) ? p as Record<string, unknown> : {};
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
