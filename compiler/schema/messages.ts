// One ajv error -> one diagnostic in a config author's words, placed at the offending YAML.
import type { ErrorObject } from 'ajv';
import type { Diagnostic } from '../source/diagnostics.ts';
import { describePath, describeSubject, get } from '../source/describe.ts';
import { didYouMean } from '../source/suggest.ts';
import type { ConfigPath, Locate } from '../source/yaml.ts';
import { deref, type SchemaNode } from './ajv.ts';
import { jsonType } from './unions.ts';

export interface MessageContext {
  file: string;
  config: unknown;
  locate: Locate;
}

type Found = { message: string; hint?: string; at?: ConfigPath; on?: 'key' | 'value' };

export function errorToDiagnostic(e: ErrorObject, ctx: MessageContext): Diagnostic | undefined {
  if (e.keyword === 'if') return undefined; // its `then` reports the real problem
  const path = pointerToPath(e.instancePath, ctx.config);
  const found = explain(e, path, ctx.config);
  const at = found.at ?? path;
  const pos = ctx.locate(at, found.on ?? 'value');
  const d: Diagnostic = { file: ctx.file, ...pos, severity: 'error', message: found.message, path: at };
  if (found.hint) d.hint = found.hint;
  return d;
}

function explain(e: ErrorObject, path: ConfigPath, config: unknown): Found {
  const subject = describeSubject(config, path);
  const parent = (e.parentSchema ?? {}) as SchemaNode;
  const p = e.params as Record<string, any>;
  const data = e.data;
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = String(p.additionalProperty);
      const { owner, rel } = describePath(config, path);
      const allowed = Object.keys(parent.properties ?? {});
      const hint = didYouMean(field, allowed) ?? childHint(field, parent);
      return { message: `unknown field "${field}" in ${rel ? `${rel} of ${owner}` : owner}`, hint, at: [...path, field], on: 'key' };
    }
    case 'required': {
      const { owner, rel } = describePath(config, path);
      const missing: string[] = p.missing ?? [p.missingProperty];
      const fields = missing.map((m) => `"${m}"`);
      const what = missing.length === 1 ? `field ${fields[0]}` : `fields ${joinList(fields, 'and')}`;
      return { message: `missing required ${what} in ${rel ? `${rel} of ${owner}` : owner}`, hint: parent['x-message'], on: 'key' };
    }
    case 'type': {
      const hint = path.length === 0 ? 'a config is a mapping with an `interfaces:` key' : undefined;
      return { message: `${subject}: expected ${joinList(String(p.type).split(','), 'or')}, got ${jsonType(data)}`, hint };
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map((v) => String(v));
      const hint = typeof data === 'string' ? didYouMean(data, allowed) : undefined;
      return { message: `${subject}: expected one of ${allowed.join(', ')}; got ${JSON.stringify(data)}`, hint };
    }
    case 'const':
      return { message: `${subject}: expected ${JSON.stringify(p.allowedValue)}, got ${JSON.stringify(data)}` };
    case 'pattern':
      return { message: `${subject}: ${parent['x-message'] ?? `expected text matching /${p.pattern}/`}; got ${JSON.stringify(data)}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { message: `${subject}: must be ${p.comparison} ${p.limit}, got ${JSON.stringify(data)}` };
    case 'minProperties':
    case 'maxProperties':
      return onlyOneField(e.keyword, subject, parent, data);
    case 'x-exactly-one': {
      const fields = e.schema as string[];
      const set = fields.filter((f) => (data as Record<string, unknown>)[f] !== undefined);
      return set.length === 0
        ? { message: `${subject}: set one of ${fields.join(', ')}`, on: 'key' }
        : { message: `${subject}: set only one of ${fields.join(', ')}; found ${set.join(' and ')}`, on: 'key' };
    }
    case 'not':
      return { message: `${subject}: ${parent['x-message'] ?? 'this combination of fields is not allowed'}`, on: 'key' };
    case 'minItems':
      return { message: `${subject}: expected at least ${p.limit} item${p.limit === 1 ? '' : 's'}` };
    default:
      return { message: `${subject}: ${e.message ?? e.keyword}` };
  }
}

/** Transforms and state actions hold exactly one operation: say which ones were found. */
function onlyOneField(keyword: string, subject: string, parent: SchemaNode, data: unknown): Found {
  const noun = parent.title === 'StateAction' ? 'a state action' : parent.title === 'Transform' ? 'a transform' : 'it';
  const keys = Object.keys((data as object) ?? {});
  if (keyword === 'minProperties') return { message: `${subject} is empty; ${noun} sets exactly one field`, on: 'key' };
  return {
    message: `${subject} sets ${keys.join(' and ')}; ${noun} sets exactly one field`,
    hint: parent.title === 'Transform' ? 'give each transform its own list item under post_transforms' : undefined,
    on: 'key',
  };
}

/** A field written one level too high: `expect_status` on an action belongs under `http`. */
function childHint(field: string, parent: SchemaNode): string | undefined {
  const owners = Object.entries(parent.properties ?? {}).filter(([, sub]) => {
    let s = deref(sub);
    if (s?.type === 'array') s = deref(s.items);
    return s?.properties?.[field] !== undefined;
  });
  return owners.length === 1 ? `"${field}" belongs under "${owners[0][0]}:"` : undefined;
}

function joinList(items: string[], conj: 'and' | 'or'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`;
}

/** `/interfaces/a/actions/0` -> ['interfaces', 'a', 'actions', 0]: indexes are numbers where the data is an array. */
export function pointerToPath(pointer: string, config: unknown): ConfigPath {
  if (!pointer) return [];
  const out: ConfigPath = [];
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out.push(Array.isArray(get(config, out)) ? Number(seg) : seg);
  }
  return out;
}
