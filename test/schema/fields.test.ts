// Nothing in a config is silently ignored: every field of the schema is read by the code (a reader
// listed in ./field-readers.ts names it), documentation, or refused (compiler/load/unbuilt.ts, or the
// action kind is not built).
import { describe, expect, it } from 'vitest';
import schema from '../../compiler/schema/config.schema.json' with { type: 'json' };
import { KINDS } from '../../compiler/lower/action-kind.ts';
import { UNBUILT } from '../../compiler/load/unbuilt.ts';
import { BUILT_KINDS } from '../../runtime/actions/kinds.ts';
import { check } from './helpers.ts';
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
