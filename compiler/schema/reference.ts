// The config reference (docs/reference.md) rendered from config.schema.json, so the users' field
// reference can never drift from what `check` accepts. `npm run gen` rewrites it; a test checks it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { editorSchema, editorSchemaFile } from './editor.ts';

type Schema = {
  title?: string; description?: string; type?: string | string[]; enum?: unknown[]; const?: unknown;
  $ref?: string; anyOf?: Schema[]; oneOf?: Schema[]; items?: Schema; default?: unknown;
  properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema;
  minimum?: number; maximum?: number; exclusiveMinimum?: number; minLength?: number; maxLength?: number;
  minItems?: number; maxItems?: number; pattern?: string; definitions?: Record<string, Schema>;
};

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const anchor = (name: string) => name.toLowerCase();
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** A short type description with links to the definitions it names. */
export function typeOf(s: Schema): string {
  if (s.$ref) { const n = refName(s.$ref); return `[${n}](#${anchor(n)})`; }
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return [...new Set(alts.map(typeOf))].join(' or ');
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  const t = Array.isArray(s.type) ? s.type.join(' or ') : s.type;
  if (t === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`;
  if (t === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) {
    return `map of string to ${typeOf(s.additionalProperties)}`;
  }
  return t ?? 'any';
}

/** Bounds the schema enforces, in words. */
function bounds(s: Schema): string {
  const b: string[] = [];
  if (s.minimum !== undefined) b.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) b.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) b.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) b.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) b.push(`at most ${s.maxLength} characters`);
  if (s.minItems !== undefined) b.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) b.push(`at most ${s.maxItems} items`);
  return b.join(', ');
}

function fieldTable(s: Schema): string[] {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const rows = Object.entries(props).map(([name, p]) => {
    const extra = [bounds(p), p.default !== undefined ? `default \`${JSON.stringify(p.default)}\`` : ''].filter(Boolean).join('; ');
    return `| \`${name}\`${required.has(name) ? ' (required)' : ''} | ${cell(typeOf(p))} | ${cell(p.description ?? '')}${extra ? ` (${cell(extra)})` : ''} |`;
  });
  if (!rows.length) return [];
  return ['| field | type | meaning |', '|---|---|---|', ...rows];
}

function section(name: string, s: Schema): string[] {
  const out = [`### ${name}`, ''];
  if (s.description) out.push(s.description, '');
  const alts = s.anyOf ?? s.oneOf;
  if (!s.properties) out.push(`Type: ${typeOf(alts ? { anyOf: alts } : { ...s, description: undefined })}.`, '');
  const b = bounds(s);
  if (b) out.push(`Bounds: ${b}.`, '');
  const table = fieldTable(s);
  if (table.length) out.push(...table, '');
  if (s.additionalProperties === false && s.properties) out.push('Any other field is refused by `pipewright check` with its position.', '');
  return out;
}

/** Definitions in the order a reader meets them: breadth-first from the top level. */
function order(root: Schema): string[] {
  const defs = root.definitions ?? {};
  const seen: string[] = [];
  const queue: Schema[] = [root];
  const visit = (s: unknown): void => {
    if (!s || typeof s !== 'object') return;
    if (Array.isArray(s)) { s.forEach(visit); return; }
    const o = s as Schema & Record<string, unknown>;
    if (typeof o.$ref === 'string') {
      const n = refName(o.$ref);
      if (!seen.includes(n) && defs[n]) { seen.push(n); queue.push(defs[n]!); }
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'definitions') visit(v);
  };
  while (queue.length) visit(queue.shift());
  for (const n of Object.keys(defs)) if (!seen.includes(n)) seen.push(n);
  return seen;
}

export function renderReference(schema: Schema): string {
  const out = [
    '# Config reference',
    '',
    '<!-- Generated from compiler/schema/config.schema.json by `npm run gen`; do not edit by hand. -->',
    '',
    'Every field a pipewright config accepts, generated from the JSON Schema that `pipewright check` applies',
    '(`pipewright schema` prints it, for editor autocompletion). How the parts work together, with examples,',
    'is in [guide.md](guide.md); the marker grammar in [interpolation.md](interpolation.md); tests and',
    'assertions in [assertions.md](assertions.md); choices made where behaviour had to be decided in',
    '[decisions.md](decisions.md).',
    '',
    '## Top level',
    '',
    ...fieldTable(schema),
    '',
    '## Definitions',
    '',
  ];
  const defs = schema.definitions ?? {};
  for (const name of order(schema)) out.push(...section(name, defs[name]!));
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

export const schemaFile = fileURLToPath(new URL('./config.schema.json', import.meta.url));
export const referenceFile = fileURLToPath(new URL('../../docs/reference.md', import.meta.url));

export function currentReference(): string {
  return renderReference(JSON.parse(readFileSync(schemaFile, 'utf8')) as Schema);
}

// `npm run gen`: the reference and the published (editor) schema, both from config.schema.json.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(referenceFile, currentReference());
  writeFileSync(editorSchemaFile, `${JSON.stringify(editorSchema(JSON.parse(readFileSync(schemaFile, 'utf8'))), null, 2)}\n`);
}
