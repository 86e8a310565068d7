// `accepts.schema` gates request bodies (runtime/contract/body-check.ts), so `check` compiles it as
// the server will: a schema ajv refuses, a pattern the linear-time regex engine cannot run, or an
// unknown format is an error at its place; an unknown keyword (a typo such as `minimun`, which ajv
// would ignore) is a warning, as is an `accepts.example` the schema refuses (`pipewright test` sends it).
import { regexProblem } from '../../runtime/values/regex.ts';
import { schemaAjv } from '../../runtime/contract/schema-ajv.ts';
import { ajvLib } from '../schema/ajv-lib.ts';
import { bodyCheck, type BodyCheck } from '../../runtime/contract/body-check.ts';
import { forEachEntry } from './walk-entries.ts';
import { isObj, type InterfaceSite } from './walk.ts';
import type { Report } from './report.ts';

/** Keywords whose values are data, not schemas: a `pattern` key inside them is not a regex. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
const HINT = 'accepts.schema is a JSON Schema (draft-07 keywords) checked against every request body';

export function lintAcceptsSchemas(ifaces: InterfaceSite[], report: Report): void {
  for (const { iface, path } of ifaces) {
    if (!isObj(iface.accepts) || iface.accepts.schema === undefined) continue;
    const schema = iface.accepts.schema;
    const at = [...path, 'accepts', 'schema'];
    let placed = false;
    forEachEntry(schema, ({ key, value, parentKey, path: p }) => {
      if (p.some((k) => typeof k === 'string' && DATA_KEYWORDS.has(k))) return;
      if (key === '__proto__' && (parentKey === 'properties' || parentKey === 'patternProperties')) {
        report('warning', [...at, ...p], 'accepts.schema: a "__proto__" property is not checked (ajv leaves this name out)', 'list it in `required` to demand it; its value is not validated');
      }
      const pattern = key === 'pattern' && typeof value === 'string' ? value : parentKey === 'patternProperties' ? key : undefined;
      const problem = pattern === undefined ? undefined : regexProblem(pattern);
      if (problem) { placed = true; report('error', [...at, ...p], problem, undefined, key === 'pattern' ? 'value' : 'key'); }
    });
    if (placed) continue;
    const warnings: string[] = [];
    const log = (m: unknown) => { if (typeof m === 'string') warnings.push(m.replace(/^strict mode: /, '')); };
    let check: BodyCheck;
    try {
      check = bodyCheck(schemaAjv(ajvLib(), { strictSchema: 'log', logger: { log, warn: log, error: log } }).compile(schema as boolean | object));
    } catch (e) {
      report('error', at, `accepts.schema cannot be compiled: ${(e as Error).message}`, HINT);
      continue;
    }
    for (const w of new Set(warnings)) report('warning', at, `accepts.schema: ${w}`, HINT);
    const example = iface.accepts.example !== undefined ? iface.accepts.example : iface.request_example;
    const wrong = example === undefined ? undefined : check(example)?.[0];
    if (wrong) {
      const where = iface.accepts.example !== undefined ? [...path, 'accepts', 'example'] : [...path, 'request_example'];
      report('warning', where, `the example does not match accepts.schema at ${wrong.path === '' ? 'its top' : wrong.path}: ${wrong.message}`, 'the server answers 400 to such a body; `pipewright test` sends the example');
    }
  }
}
