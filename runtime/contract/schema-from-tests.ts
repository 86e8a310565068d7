// JSON Schema derived from Test objects: what an interface's asserts require of its request body,
// and what a param's `validate` requires of its value. Used for the OpenAPI document and MCP tool
// input schemas. Only checks with a literal argument say something a schema can hold; a marker
// argument (`is_greater_than: a|params::min|`) is decided per run and is left out.
import type { Expr, Node, TestIR } from '../ir.ts';
import { setOwn } from '../values/build.ts';

export type JsonSchema = { [k: string]: unknown };

const literal = (n: Node): { ok: true; v: unknown } | { ok: false } => (n.k === 'lit' ? { ok: true, v: n.v } : { ok: false });
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined);
const flagOn = (v: unknown) => v !== false;

/** The constraints one test's checks put on its subject, and whether the subject must be present. */
export function checksSchema(test: TestIR, counted = false): { schema: JsonSchema; required: boolean } {
  const s: JsonSchema = {};
  let required = false;
  // count() is the length of an array or string or the key count of an object: the matching
  // keywords for all three, since each applies only to its own type.
  const bound = (side: 'min' | 'max', n: number) => {
    if (!counted) { s[side === 'min' ? 'minimum' : 'maximum'] = n; return; }
    for (const k of ['Items', 'Length', 'Properties']) s[`${side}${k}`] = n;
  };
  for (const { op, arg } of test.checks) {
    const a = literal(arg);
    if (!a.ok) continue;
    const v = a.v;
    const n = num(v);
    switch (op) {
      case 'is_not_null': if (flagOn(v)) required = true; break;
      case 'is_not_empty': if (flagOn(v)) { required = true; s.not = { enum: [null, '', [], {}] }; } break;
      case 'is_equal_to': s.const = v; required ||= v !== null; break;
      case 'is_one_of': if (Array.isArray(v)) { s.enum = v; required ||= !v.includes(null); } break;
      case 'is_type': if (typeof v === 'string') { s.type = v; required ||= v !== 'null'; } break;
      // regex fails on a missing or null value (runtime/asserts/regex.ts); it matches a number's or
      // boolean's text too, but the schema documents the canonical form, a string.
      case 'regex': if (typeof v === 'string') { s.type = 'string'; s.pattern = v; required = true; } break;
      case 'contains': required = true; break;
      case 'is_greater_than': if (n !== undefined) { counted ? bound('min', Math.floor(n) + 1) : (s.exclusiveMinimum = n); required = true; } break;
      case 'is_greater_than_or_equal_to': if (n !== undefined) { bound('min', counted ? Math.ceil(n) : n); required = true; } break;
      case 'is_less_than': if (n !== undefined) { counted ? bound('max', Math.ceil(n) - 1) : (s.exclusiveMaximum = n); required = true; } break;
      case 'is_less_than_or_equal_to': if (n !== undefined) { bound('max', counted ? Math.floor(n) : n); required = true; } break;
      case 'is_between': {
        const r = v as { min?: unknown; max?: unknown } | null;
        const min = num(r?.min), max = num(r?.max);
        if (min !== undefined) bound('min', counted ? Math.ceil(min) : min);
        if (max !== undefined) bound('max', counted ? Math.floor(max) : max);
        required = true;
        break;
      }
    }
  }
  const numeric = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].some((k) => k in s);
  if (numeric && !s.type) s.type = 'number';
  return { schema: s, required };
}

/** The body path a test's subject reads (`a|body::a.b|`, `count(a|body->items|)`), if any. */
function bodyPath(value: Expr | undefined): { path: string[]; counted: boolean } | undefined {
  if (!value) return undefined;
  const counted = value.k === 'count';
  const inner = counted ? value.of : value;
  if (inner.k !== 'ref' || inner.ref.root !== 'body' || inner.ref.default !== undefined) return undefined;
  if (!inner.ref.path.length || inner.ref.path.some((p) => typeof p !== 'string')) return undefined;
  return { path: inner.ref.path as string[], counted };
}

/** The request body's schema as the interface's assert tests constrain it (an object schema). */
export function bodySchemaFromTests(tests: TestIR[]): JsonSchema | undefined {
  const root: JsonSchema = { type: 'object', properties: {} };
  let any = false;
  for (const t of tests) {
    const at = bodyPath(t.value);
    if (!at) continue;
    const { schema, required } = checksSchema(t, at.counted);
    if (!Object.keys(schema).length && !required) continue;
    any = true;
    let node = root;
    at.path.forEach((seg, i) => {
      const props = (node.properties ??= {}) as Record<string, JsonSchema>;
      const last = i === at.path.length - 1;
      if (required && !((node.required as string[] | undefined)?.includes(seg))) node.required = [...((node.required as string[]) ?? []), seg];
      if (!Object.hasOwn(props, seg)) setOwn(props, seg, last ? {} : { type: 'object', properties: {} });
      const child = props[seg]!;
      if (last) Object.assign(child, schema);
      node = child;
    });
  }
  return any ? root : undefined;
}

/** Merges a given schema (`accepts.schema`, which wins keyword by keyword) with a derived one. */
export function mergeSchemas(given: JsonSchema | undefined, derived: JsonSchema | undefined): JsonSchema | undefined {
  if (!given || !derived) return given ?? derived;
  const out: JsonSchema = { ...derived, ...given };
  const gp = given.properties as Record<string, JsonSchema> | undefined;
  const dp = derived.properties as Record<string, JsonSchema> | undefined;
  if (gp || dp) {
    const props: Record<string, JsonSchema> = {};
    for (const [k, v] of Object.entries(dp ?? {})) setOwn(props, k, v);
    for (const [k, v] of Object.entries(gp ?? {})) setOwn(props, k, mergeSchemas(v, dp && Object.hasOwn(dp, k) ? dp[k] : undefined) ?? v);
    out.properties = props;
  }
  const req = [...new Set([...((derived.required as string[]) ?? []), ...((given.required as string[]) ?? [])])];
  if (req.length) out.required = req;
  return out;
}
