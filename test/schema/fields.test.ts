// Nothing in a config is silently ignored: every field of the schema is read by the code (a reader
// listed in ./field-readers.ts names it), documentation, or refused (compiler/load/unbuilt.ts, or the
// action kind is not built); and no field is accepted in a combination where it does nothing (two
// kinds, a kind-only field beside another kind, the interface shorthand beside actions).
import { describe, expect, it } from 'vitest';
import schema from '../../compiler/schema/config.schema.json' with { type: 'json' };
import { KINDS } from '../../compiler/lower/action-kind.ts';
import { COMPANIONS, KIND_FIELDS } from '../../compiler/schema/action-kinds.ts';
import { UNBUILT } from '../../compiler/load/unbuilt.ts';
import { BUILT_KINDS } from '../../runtime/actions/kinds.ts';
import { check, withActions } from './helpers.ts';
import { DOCUMENTATION, FIELD_READERS } from './field-readers.ts';
import { schemaFields, sourceOf, unread, type Field } from './field-walk.ts';

const refused = (f: Field) => UNBUILT.some((u) => u.owner === f.owner && u.field === f.field);
const unbuiltKind = (f: Field) => f.owner === 'Action' && KINDS.some(([field, kind]) => field === f.field && !(BUILT_KINDS as readonly string[]).includes(kind));
const stop = (f: Field) => refused(f) || unbuiltKind(f) || DOCUMENTATION.has(`${f.owner}.${f.field}`);
const cache = new Map<string, string>();
const source = (p: string) => cache.get(p) ?? (cache.set(p, sourceOf(p)), cache.get(p)!);

describe('every schema field is built or refused', () => {
  const fields = schemaFields(schema, stop);

  it('walks the whole schema', () => expect(fields.length).toBeGreaterThan(300));

  it('each field is named by the code its definition lists as reader', () => {
    expect(unread(fields, FIELD_READERS, source).map((f) => `${f.owner}.${f.field}`)).toEqual([]);
  });

  it('fails on a field nothing reads and nothing refuses', () => {
    const grown = structuredClone(schema) as any;
    grown.definitions.Interface.properties.frobnicate = { type: 'boolean' };
    expect(unread(schemaFields(grown, stop), FIELD_READERS, source)).toEqual([{ owner: 'Interface', field: 'frobnicate' }]);
  });

  it('lists only readers of reachable definitions, and refusals of real fields', () => {
    const owners = new Set(fields.map((f) => f.owner));
    expect(Object.keys(FIELD_READERS).filter((o) => !owners.has(o))).toEqual([]);
    const declared = (owner: string) => (owner === 'Config' ? schema.properties : (schema.definitions as any)[owner]?.properties) ?? {};
    expect(UNBUILT.filter((u) => !Object.hasOwn(declared(u.owner), u.field))).toEqual([]);
    for (const doc of DOCUMENTATION) expect(Object.hasOwn(declared(doc.split('.')[0]!), doc.split('.')[1]!)).toBe(true);
  });
});

describe('unbuilt fields', () => {
  it('the table is empty: every field the schema accepts is built (silence included)', () => {
    expect(UNBUILT).toEqual([]);
    const yaml = ['interfaces:', '  orders:', '    silence: true', '    actions:', '      - name: A', '        input: a'].join('\n');
    expect(check(yaml).filter((d) => d.severity === 'error')).toEqual([]);
  });
});

/** Action fields every kind reads (conditions, retry, logs, transforms, asserts, responses, hiding). */
const EVERY_KIND = [
  'name', 'action', 'description', 'timeout', 'retry', 'replayable', 'pre_log', 'post_log', 'error_log', 'success_log', 'retry_log',
  'json_output', 'depends_on', 'run_when_succeeded', 'run_when_failed', 'run_on_assertion', 'post_transforms', 'assert', 'output',
  'hide_action', 'hide_data_on_success', 'hide_data_on_error', 'hide_data_on_empty', 'hide_errors', 'hide_metrics', 'response_on_success', 'response_on_error',
];
/** A minimal value of each kind field and of each kind-only field; a new one needs its value here. */
const KIND_VALUE: Record<string, string> = { lookup: 'a|body|', http: '{ url: http://h/x }', url: 'http://h/x', query: 'select 1', document_operation: '{ collection: c, operation: find }', database: 'db', command: '{ run: echo }', sftp: '{ operation: list, path: / }', email: '{ to: a@b.c, subject: s, text: t }', state: '{ get: k }', only_new: '{ key: k, id: .id }', discover: '{ static: [a:1] }', delay: '1s', wait_for_callback: '{ timeout: 1m }', agent: '{ model: m, url: http://h/x, prompt: p }', emit_metric: '{ name: m }', ws_publish: '{ channel: c }', mqtt_publish: '{ topics: t }', aws: '{ credential: c, bucket: b, key: k, operation: get }', google: '{ credential: c, bucket: b, key: k, operation: get }' };
const FIELD_VALUE: Record<string, string> = { actions: '[{ name: X, input: a }]', item_timeout: '1s', lookup_concurrency: '2', lookup_max_items: '5', lookup_partition: 'true', lookup_inherit_jq: '{ a: .x }', lookup_inherit: '{ a: x }', params: '[1]', multi: 'true', conn_string: 'postgres://h/db', output_stdout: 'true', expect_exit: '0', input: 'a', input_fallbacks: '[b]', conditional_input: '[a|body::x|]' };
const errorsOf = (text: string) => check(text).filter((d) => d.severity === 'error');
const LOOKUP_ACTIONS = '        actions: [{ name: X, input: a|body| }]\n';

/** Action fields of a schema that are neither kinds, kind-only fields, nor read by every kind. */
function unclassified(s: typeof schema): string[] {
  const classified = new Set<string>([...KINDS.map(([f]) => f), ...KIND_FIELDS.map((k) => k.field), ...EVERY_KIND]);
  return Object.keys((s.definitions as any).Action.properties).filter((f) => !classified.has(f));
}

describe('no field accepted in a combination that does nothing', () => {
  it('every action field is a kind, read by some kinds only (KIND_FIELDS), or read by every kind', () => {
    expect(unclassified(schema)).toEqual([]);
    const action = Object.keys((schema.definitions as any).Action.properties);
    expect(EVERY_KIND.filter((f) => !action.includes(f))).toEqual([]);
  });

  it('fails on a new action field nobody said which kinds read', () => {
    const grown = structuredClone(schema) as any;
    grown.definitions.Action.properties.frobnicate = { type: 'boolean' };
    expect(unclassified(grown)).toEqual(['frobnicate']);
  });

  it('every pair of kind fields is refused, companions excepted (generated from the kinds table)', () => {
    const fields = KINDS.map(([f]) => f);
    expect(fields.filter((f) => KIND_VALUE[f] === undefined)).toEqual([]);
    for (const a of fields) for (const b of fields) {
      if (fields.indexOf(a) >= fields.indexOf(b)) continue;
      const allowed = (a === 'http' && b === 'url') || COMPANIONS.some(([c, of]) => (c === a && of.includes(b)) || (c === b && of.includes(a)));
      const text = withActions(`      - name: A\n        ${a}: ${KIND_VALUE[a]}\n        ${b}: ${KIND_VALUE[b]}\n${a === 'lookup' || b === 'lookup' ? LOOKUP_ACTIONS : ''}`, 'expose_metrics: true\n');
      const twoKinds = errorsOf(text).filter((d) => d.message.includes('sets two kinds'));
      expect(twoKinds.length, `${a} + ${b}`).toBe(allowed ? 0 : 1);
    }
  });

  it('a kind-only field beside any other kind is refused at the field; beside its kinds it is not', () => {
    expect(KIND_FIELDS.filter((k) => FIELD_VALUE[k.field] === undefined).map((k) => k.field)).toEqual([]);
    // One field per kind (the first that chooses it), and no kind field at all: an input action.
    const kinds = [...new Map(KINDS.map(([f, k]) => [k, f] as const)).entries(), ['input', 'input'] as const];
    for (const { field, kinds: readers } of KIND_FIELDS) {
      for (const [kind, kindField] of kinds) {
        const host = kindField === 'input' ? (field === 'input' ? '' : '        input: a\n') : `        ${kindField}: ${KIND_VALUE[kindField]}\n`;
        const text = withActions(`      - name: A\n${host}        ${field}: ${FIELD_VALUE[field]}\n${kind === 'lookup' && field !== 'actions' ? LOOKUP_ACTIONS : ''}`, 'expose_metrics: true\n');
        const refused = errorsOf(text).filter((d) => d.message.startsWith(`${field} only applies to`));
        expect(refused.length, `${field} beside ${kind}`).toBe(readers.includes(kind) ? 0 : 1);
        if (refused[0]) expect(refused[0].at.split(':')[0], `${field} beside ${kind}: at the field`).toBe(host ? '7' : '6');
      }
    }
  });

  it('the interface shorthand (url, query, conn_string) beside actions, or two shorthands, is refused', () => {
    const iface = (lines: string) => `interfaces:\n  x:\n${lines}`;
    const actions = '    actions:\n      - name: A\n        input: a\n';
    for (const [field, value] of [['url', 'http://h/x'], ['query', 'select 1'], ['conn_string', 'postgres://h/db']]) {
      expect(errorsOf(iface(`    ${field}: ${value}\n${actions}`)).map((d) => d.message), field).toEqual([`interface "x" sets both ${field} and actions: the ${field === 'conn_string' ? 'query' : field} shorthand is a one-action interface`]);
    }
    expect(errorsOf(iface('    url: http://h/x\n    query: select 1\n')).map((d) => d.message)).toEqual(['interface "x" sets both url and query: the shorthand is one action of one kind']);
    expect(errorsOf(iface('    conn_string: postgres://h/db\n')).map((d) => d.message)).toEqual(['conn_string of interface "x" only applies to the query shorthand']);
    expect(errorsOf(iface('    query: select 1\n    conn_string: postgres://h/db\n'))).toEqual([]);
  });
});
