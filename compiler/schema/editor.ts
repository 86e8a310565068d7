// The published config schema (`pipewright schema`, compiler/schema/editor.schema.json, the file a
// `# yaml-language-server: $schema=` modeline names): config.schema.json in standard draft-07, so
// editors and any validator in strict mode take it as is. Our two keywords become standard ones or
// go: `x-exactly-one` (exactly one of these fields) is a oneOf of `required`s, `x-message` (a
// friendlier error message for our own diagnostics) is left out. `npm run gen` writes the file.
import { fileURLToPath } from 'node:url';

type Node = { [k: string]: unknown };

export const editorSchemaFile = fileURLToPath(new URL('./editor.schema.json', import.meta.url));

export function editorSchema(source: unknown): unknown {
  const walk = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(walk);
    if (n === null || typeof n !== 'object') return n;
    const out: Node = {};
    for (const [k, v] of Object.entries(n as Node)) {
      if (k === 'x-message' || k === 'x-exactly-one') continue;
      // Property names and definition names are data, not keywords: copied as they are.
      out[k] = k === 'properties' || k === 'definitions' || k === 'patternProperties'
        ? Object.fromEntries(Object.entries(v as Node).map(([name, s]) => [name, walk(s)]))
        : walk(v);
    }
    // Strict validators (ajv's strict mode) refuse a union `type` and a `required` name not declared
    // beside it: the same constraints in forms they accept (an anyOf of types; the name declared
    // with the schema `true`, which adds nothing).
    if (Array.isArray(out.type)) {
      const types = out.type as string[];
      delete out.type;
      out.allOf = [...((out.allOf as unknown[]) ?? []), { anyOf: types.map((t) => ({ type: t })) }];
    }
    if (Array.isArray(out.required)) {
      const props = (out.properties ??= {}) as Node;
      for (const f of out.required as string[]) if (!Object.hasOwn(props, f)) props[f] = true;
    }
    const one = (n as Node)['x-exactly-one'];
    if (Array.isArray(one)) out.allOf = [...((out.allOf as unknown[]) ?? []), { oneOf: one.map((f) => ({ required: [f], properties: { [f]: true } })) }];
    return out;
  };
  return walk(source);
}
