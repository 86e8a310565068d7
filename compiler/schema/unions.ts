// anyOf noise reduction. ajv reports every branch of a failed union; people want the one branch they
// meant. We pick the branch whose type matches the value and re-validate only that branch, so its
// errors (and nested unions inside it) come out clean. Unions in the schema are kept "pure" (nothing
// but the anyOf at that node), so every error at or under a failed union belongs to that union.
import type { ErrorObject } from 'ajv';
import { branchValidator, deref, type SchemaNode } from './ajv.ts';

export function collapseUnions(errors: ErrorObject[]): ErrorObject[] {
  // Outermost first. At one instance path ajv reports an inner union (a branch that is itself a
  // union) before the outer one, so later errors are the outer ones.
  const unions = errors
    .map((e, index) => ({ e, index }))
    .filter(({ e }) => e.keyword === 'anyOf' || (e.keyword === 'oneOf' && !e.params.passingSchemas))
    .sort((a, b) => depth(a.e.instancePath) - depth(b.e.instancePath) || b.index - a.index)
    .map(({ e }) => e);
  const handled: string[] = [];
  const out: ErrorObject[] = [];
  for (const u of unions) {
    if (handled.some((p) => isUnder(u.instancePath, p))) continue;
    handled.push(u.instancePath);
    out.push(...collapseUnions(explainUnion(u)));
  }
  for (const e of errors) if (!handled.some((p) => isUnder(e.instancePath, p))) out.push(e);
  return out;
}

function explainUnion(u: ErrorObject): ErrorObject[] {
  const keyword = u.keyword as 'anyOf' | 'oneOf';
  const branches = (u.schema as unknown[]) ?? [];
  const typed = branches.map((b, i) => ({ i, types: schemaTypes(b) }));
  const fits = typed.filter((b) => b.types === undefined || b.types.some((t) => typeFits(t, u.data)));
  if (fits.length === 0) {
    const expected = [...new Set(typed.flatMap((b) => b.types ?? []))];
    return [{ ...u, keyword: 'type', params: { type: expected.join(',') }, message: 'type' }];
  }
  let best: ErrorObject[] | undefined;
  for (const { i } of fits) {
    const validate = branchValidator(u.parentSchema as object, keyword, i);
    if (!validate || validate(u.data)) continue;
    const errs = (validate.errors ?? []).map((e) => ({ ...e, instancePath: u.instancePath + e.instancePath }));
    if (!best || rank(errs) > rank(best)) best = errs;
  }
  return best ?? [u];
}

/** Prefer the branch the value got furthest into, then the one with fewer complaints. */
function rank(errs: ErrorObject[]): number {
  return Math.max(0, ...errs.map((e) => depth(e.instancePath))) * 1000 - errs.length;
}

/** JSON types a schema admits at its root, or undefined when it admits any. */
function schemaTypes(node: unknown): string[] | undefined {
  const s: SchemaNode | undefined = deref(node);
  if (!s) return undefined;
  if (s.type) return ([] as string[]).concat(s.type);
  if ('const' in s) return [jsonType(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))];
  const subs = s.anyOf ?? s.oneOf;
  if (Array.isArray(subs)) {
    const all = subs.map(schemaTypes);
    return all.some((t) => t === undefined) ? undefined : [...new Set(all.flat() as string[])];
  }
  return undefined;
}

function typeFits(type: string, data: unknown): boolean {
  return type === 'integer' ? typeof data === 'number' : type === jsonType(data);
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const depth = (p: string): number => (p === '' ? 0 : p.split('/').length - 1);
const isUnder = (p: string, prefix: string): boolean => p === prefix || p.startsWith(prefix + '/');
