// JSON Schema `format`s checked in request bodies: ajv-formats' "fast" set, each as a function (a
// RegExp format would be inlined by ajv's standalone code as a regular-expression literal, which
// the generated module's layout does not read; a function is referenced by name instead).
import { fastFormats, formatNames } from 'ajv-formats/dist/formats.js';
import type { Format } from 'ajv';

type Fmt = Exclude<Format, string>;

const asFunction = (f: Fmt): Fmt => {
  if (f instanceof RegExp) return { type: 'string', validate: (s: string) => f.test(s) };
  if (typeof f === 'object' && f !== null && 'validate' in f && f.validate instanceof RegExp) {
    const re = f.validate;
    return { ...f, validate: (s: string) => re.test(s) } as Fmt;
  }
  return f;
};

export const schemaFormats: Record<string, Fmt> = Object.fromEntries(
  formatNames.map((n) => [n, asFunction(fastFormats[n] as Fmt)]),
);
