// Issue 29, section 3: `check` against the placement table (compiler/markers/request-values.ts).
// Every string field the JSON Schema gives an action kind (walked from the schema, nested objects
// included) gets a request marker, whole or after literal text, inside a minimal valid config; the
// same placement with a configuration marker (a|var::V|) is the control. Where the control passes,
// the request marker must be refused exactly where the table says, at that field, and nothing crashes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import schema from '../../compiler/schema/config.schema.json' with { type: 'json' };
import { compileConfig } from '../../compiler/project.ts';
import { placementOf } from '../../compiler/markers/request-values.ts';

type Json = Record<string, unknown>;
const defs = (schema as unknown as { definitions: Record<string, Json> }).definitions;
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';

/** A minimal valid action of each kind; `credential`: it carries an operator secret. */
const BASES: Array<{ kind: string; action: Json; credential: boolean }> = [
  { kind: 'http', action: { http: { url: 'http://api.example/x' } }, credential: false },
  { kind: 'http', action: { http: { url: 'http://api.example/x', bearer_auth: 'a|secret::TOK|' } }, credential: true },
  { kind: 'url', action: { url: 'http://api.example/x' }, credential: false },
  { kind: 'command', action: { command: { run: 'echo hi' } }, credential: false },
  { kind: 'database', action: { query: 'select 1', conn_string: 'a|secret::DB|' }, credential: true },
  { kind: 'document_operation', action: { conn_string: 'a|secret::DB|', document_operation: { collection: 'c', operation: 'find', filter: {} } }, credential: true },
  { kind: 'state', action: { state: { get: { key: 'k' } } }, credential: false },
  { kind: 'only_new', action: { only_new: { id: '.id', key: 'k' } }, credential: false },
  { kind: 'sftp', action: { sftp: { host: 'sftp.example', user: 'u', password: 'a|secret::PW|', host_key: KEY, operation: 'list', path: '/' } }, credential: true },
  { kind: 'mqtt_publish', action: { mqtt_publish: { topics: 'devices/x' } }, credential: false },
  { kind: 'ws_publish', action: { ws_publish: { channels: 'news' } }, credential: false },
  { kind: 'agent', action: { agent: { url: 'http://model.example/v1', model: 'm', headers: { authorization: 'Bearer a|secret::K|' }, memory: { key: 'k' } } }, credential: true },
  { kind: 'email', action: { email: { to: 'ops@example.com', subject: 's', text: 't' } }, credential: false },
  { kind: 'wait_for_callback', action: { wait_for_callback: { token: 'a|uuid|', timeout: '1h' } }, credential: false },
  { kind: 'aws', action: { aws: { credential: 'AWS', get_signed_download_url: { bucket: 'b', key: 'k' } } }, credential: true },
  { kind: 'google', action: { google: { credential: 'GCP', get_signed_download_url: { bucket: 'b', key: 'k' } } }, credential: true },
  { kind: 'discover', action: { discover: { dns: { name: 'svc.example' } } }, credential: false },
];

const resolve = (s: Json | undefined): Json | undefined => {
  let x = s;
  for (let i = 0; x && typeof x.$ref === 'string' && i < 8; i++) x = defs[(x.$ref as string).split('/').pop()!];
  return x;
};
const takesString = (s: Json | undefined): boolean => {
  const r = resolve(s);
  if (!r) return false;
  // No type at all (http.body, mqtt_publish.data): any value, strings included.
  if (r.type === undefined && !r.anyOf && !r.oneOf && !r.properties && !r.enum && r.const === undefined) return true;
  if (r.type === 'string' || (Array.isArray(r.type) && r.type.includes('string'))) return !r.enum;
  return ((r.anyOf ?? r.oneOf ?? []) as Json[]).some(takesString);
};

/** Dotted paths (under the action) of every string-typed field of an object schema, nested objects included. */
function stringFields(s: Json | undefined, prefix: string, depth = 0): string[] {
  const r = resolve(s);
  if (!r || depth > 3 || typeof r.properties !== 'object') return [];
  return Object.entries(r.properties as Record<string, Json>).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [...(takesString(v) ? [path] : []), ...stringFields(v, path, depth + 1)];
  });
}

const ACTION_FIELDS = new Set(['url', 'query', 'conn_string']);
const placements = BASES.flatMap((b) => {
  const top = b.kind === 'database' ? 'query' : b.kind;
  const fields = ACTION_FIELDS.has(top) ? [...ACTION_FIELDS].filter((f) => f in b.action || f === top) : stringFields((defs.Action!.properties as Record<string, Json>)[top], top);
  return fields.map((field) => ({ base: b, field }));
});

function withValue(action: Json, field: string, value: string): Json {
  const copy = structuredClone(action);
  const keys = field.split('.');
  let o = copy;
  for (const k of keys.slice(0, -1)) { if (typeof o[k] !== 'object' || o[k] === null) o[k] = {}; o = o[k] as Json; }
  o[keys.at(-1)!] = value;
  return copy;
}

// Prev runs first, so a|Prev::…| names an earlier action (an unknown one is an error of its own).
const configOf = (action: Json) => JSON.stringify({ interfaces: { x: { method: 'POST', actions: [{ name: 'Prev', input: { x: 1 } }, { name: 'A', ...action, output: 'http' }] } } });

function outcome(action: Json, field: string) {
  const c = compileConfig('p.yaml', configOf(action));
  const errors = c.diagnostics.filter((d) => d.severity === 'error');
  const at = ['interfaces', 'x', 'actions', 1, ...field.split('.')].join('.');
  return { ok: c.ok, atField: errors.some((d) => (d.path ?? []).join('.') === at), errors };
}

describe('the request-value rule, for every string field of every action kind', () => {
  it('has minimal valid bases and finds the fields the table names', () => {
    for (const b of BASES) expect(compileConfig('p.yaml', configOf(b.action)).diagnostics.filter((d) => d.severity === 'error'), b.kind).toEqual([]);
    const fields = new Set(placements.map((p) => p.field));
    for (const f of ['http.url', 'http.body', 'http.proxy', 'command.run', 'command.cwd', 'query', 'conn_string', 'state.namespace', 'only_new.namespace', 'agent.memory.namespace', 'agent.url', 'mqtt_publish.topics', 'document_operation.collection', 'document_operation.filter', 'sftp.host']) expect(fields).toContain(f);
    expect(placements.length).toBeGreaterThan(80);
  });

  const ROOTS = ['body::x', 'params::x', 'headers::x-h', 'raw_body', 'body', 'Prev::data.x', 'state::k'];
  it('check refuses a request marker exactly where the table says, and never crashes', () => {
    fc.assert(fc.property(
      fc.constantFrom(...placements), fc.constantFrom('whole', 'part'), fc.constantFrom(...ROOTS),
      ({ base, field }, form, root) => {
        const row = placementOf(field, base.credential);
        const prefix = row?.prefix ?? 'x-';
        const mk = (m: string) => (form === 'whole' ? m : `${prefix}${m}`);
        // An earlier action, so a|Prev::…| names something.
        const control = outcome(withValue(base.action, field, mk('a|var::V|')), field);
        const hostileAction = withValue(base.action, field, mk(`a|${root}|`));
        const hostile = outcome(hostileAction, field);
        if (!control.ok) return; // the schema or lowering takes no marker here at all (an enum, a shell path)
        const expected = row ? row[form] : 'free';
        if (expected === 'refused') {
          expect(hostile.ok, `${field} ${form} ${root}`).toBe(false);
          expect(hostile.atField || hostile.errors.some((d) => (d.path ?? []).join('.').startsWith(['interfaces', 'x', 'actions', 1, field.split('.')[0]].join('.'))), `${field} ${form}`).toBe(true);
        } else {
          expect(hostile.errors.map((d) => d.message), `${field} ${form} ${root} (${expected})`).toEqual([]);
        }
      },
    ), { numRuns: 400 });
  }, 60_000);

  it('every placement, deterministically: whole and after literal text, body marker', () => {
    const mismatches: string[] = [];
    let tested = 0;
    for (const { base, field } of placements) {
      for (const form of ['whole', 'part'] as const) {
        const row = placementOf(field, base.credential);
        const mk = (m: string) => (form === 'whole' ? m : `${row?.prefix ?? 'x-'}${m}`);
        if (!outcome(withValue(base.action, field, mk('a|var::V|')), field).ok) continue;
        tested++;
        const refused = !outcome(withValue(base.action, field, mk('a|body::x|')), field).ok;
        const expected = (row ? row[form] : 'free') === 'refused';
        if (refused !== expected) mismatches.push(`${base.kind}${base.credential ? '+credential' : ''} ${field} ${form}: ${refused ? 'refused' : 'passed'}, table: ${row ? row[form] : 'free'}`);
      }
    }
    expect(mismatches).toEqual([]);
    // Most placements take a configuration marker, so the rule is really exercised there.
    expect(tested).toBeGreaterThan(150);
    console.info(`request-value placements checked: ${tested} of ${placements.length * 2}`);
  }, 60_000);
});

describe('interpreters, generated', () => {
  const INTERP = [['sh', '-c'], ['bash', '-c'], ['/bin/sh', '-c'], ['zsh', '-c'], ['dash', '-ec'], ['node', '-e'], ['node', '--eval'], ['python', '-c'], ['python3', '-c'], ['perl', '-e'], ['ruby', '-e'], ['php', '-r'], ['pwsh', '-c'], ['cmd', '/c']];
  const WRAP = ['', 'env ', 'env A=1 ', 'nice -n 5 ', 'timeout 10 ', 'sudo -u app ', 'nohup '];
  it('a request marker anywhere in the script is refused; after the script it is an argument', () => {
    fc.assert(fc.property(fc.constantFrom(...INTERP), fc.constantFrom(...WRAP), fc.string({ maxLength: 8 }).map((s) => s.replace(/['"\\|\n\r]/g, '')), fc.string({ maxLength: 8 }).map((s) => s.replace(/['"\\|\n\r]/g, '')),
      ([prog, flag], wrap, before, after) => {
        const inScript = outcome({ command: { run: `${wrap}${prog} ${flag} '${before} a|body::t|${after}'` } }, 'command.run');
        expect(inScript.ok).toBe(false);
        expect(inScript.errors.some((d) => d.message.includes('is inside the script that'))).toBe(true);
        if (prog === 'pwsh' || prog === 'cmd') return; // the rest of their line is the command
        const asArg = outcome({ command: { run: `${wrap}${prog} ${flag} 'echo "$1"' x a|body::t|` } }, 'command.run');
        expect(asArg.errors).toEqual([]);
      }), { numRuns: 150 });
  });
});
