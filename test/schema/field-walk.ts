// Every field of the config schema reachable from its root, with the definition that declares it,
// and which of them no code reads and no refusal covers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type Node = Record<string, any>;
export interface Field { owner: string; field: string }

/** Fields reachable from the root; `stop(owner, field)` prunes a field and everything under it. */
export function schemaFields(schema: Node, stop: (f: Field) => boolean): Field[] {
  const out: Field[] = [];
  const seen = new Set<string>();
  const walk = (n: unknown, owner: string): void => {
    if (Array.isArray(n)) return n.forEach((x) => walk(x, owner));
    if (typeof n !== 'object' || n === null) return;
    const node = n as Node;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop()!;
      if (!seen.has(name)) { seen.add(name); walk(schema.definitions[name], name); }
    }
    for (const [field, sub] of Object.entries<unknown>(node.properties ?? {})) {
      const f = { owner, field };
      if (stop(f)) continue;
      out.push(f);
      walk(sub, `${owner}.${field}`);
    }
    for (const k of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'anyOf', 'oneOf', 'allOf']) walk(node[k], owner);
    for (const sub of Object.values<unknown>(node.patternProperties ?? {})) walk(sub, owner);
  };
  walk(schema, 'Config');
  return out;
}

/** The source text of a file, or of every .ts file under a folder. */
export function sourceOf(path: string): string {
  if (!statSync(path).isDirectory()) return readFileSync(path, 'utf8');
  return readdirSync(path, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(path, f), 'utf8')).join('\n');
}

/** The code names the field as a property: `'field'`, `.field`, `field:` or in a destructuring. */
export function names(code: string, field: string): boolean {
  const f = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(['"]${f}['"]|\\.${f}\\b|\\b${f}\\??:|[{,]\\s*${f}\\s*[,}=])`).test(code);
}

/** Fields whose owner has no reader, or whose readers never name them. */
export function unread(fields: Field[], readers: Record<string, string[]>, source: (path: string) => string = sourceOf): Field[] {
  return fields.filter((f) => !(readers[f.owner] ?? []).some((p) => names(source(p), f.field)));
}
