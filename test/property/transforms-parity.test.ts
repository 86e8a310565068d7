// Property: every registered transform gives byte-identical responses through the fast path and
// the interpreter on random data (JSON values, records with hostile keys, strings, numbers, and
// some valid encoded payloads), and never fails other than as a clean action failure.
// Each transform gets a few small configs (variants below); a new transform without variants
// fails the coverage test, so parity coverage grows with the registry.
import { createCipheriv } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as XLSX from '@e965/xlsx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import type { Plan } from '../../runtime/plan.ts';
import { systemClock } from '../../runtime/services.ts';
import { transforms } from '../../runtime/transforms/index.ts';
import { setClock } from '../../runtime/transforms/util/clock.ts';
import { planOf, testEnv } from '../support/plans.ts';

const AES = '0123456789abcdef0123456789abcdef';
const S3 = '{ bucket: b, file_key: a|body->a|, expiration_secs: 60, endpoint: "https://s3.example.com", region: eu-west-1, access_key_id: AK, secret_access_key: SK, key: url }';
const convert = ['a', '""', '{ key: out, json_path: $.a }'];

/** Configs per transform (YAML flow text); `a|body->x|` markers read the random request body. */
const variants: Record<string, string[]> = {
  rename_attributes: ['{ a: b, b: a }', '{ __proto__: a, id: constructor }', '{ a: x, v: x, x: a, c: c }'],
  remove_attributes: ['[a, b.c]', '[__proto__, constructor]'],
  keep_attributes: ['[a, id, __proto__]', '[items.0, b.c]', '[constructor, v, x, toString]'],
  move_attributes: ['{ a: b.c }', '{ __proto__: x, v: a.__proto__ }'],
  rename_keys: ['{ a: z, __proto__: p }'],
  remove_keys: ['[a, __proto__]'],
  add_attribute: ['{ added: 1, nested: { x: [1, "two"] } }', '{ __proto__: { polluted: true }, from: a|body->a| }', '{ a: a|body->v|, __proto__: 1, constructor: x }'],
  return_row: ['0', '-1', '3'],
  extract_value: ['a', 'items.0.id', '$.a', '$..id'],
  extract_array: ['{ from: items, paths: [id] }', '{ paths: [a, b.c], dedupe: true }', '{ flatten: true, dedupe: true }'],
  extract_with_json_path: ['$..id', '$.items[*].a', '$[0]', '$.*'],
  extract_with_jq: ['.', '.items', '[.[]? | numbers]', 'keys?', 'if type == "object" then to_entries else . end', '.a // "none"', 'map(.a)?', '[paths] | length']
    .map((src) => JSON.stringify(src)),
  numerics: ['[a, b, v]', '[__proto__, items.0]'],
  group_by: ['[a]', '[a, b]', '[__proto__, items.0, b.c]', '[constructor]'],
  nested_transforms: ['{ items: [ { remove_attributes: [a] } ] }', '{ a: [ { numerics: [b] }, { extract_with_jq: "." } ] }', '{ a: [ { decompress: { value: "", key: out } } ] }'],
  math: [
    '{ expressions: { total: "target.a * 2 + target.b" }, decimal_places: 2 }',
    '{ expressions: { x: "target.v / 3", y: "target.x + 1" }, to_string: true, decimal_places: 1 }',
    '{ expressions: { n: "target.a" }, eval_type: int, target: items }',
    '{ expressions: { __proto__: "target.v * 3", w: "target.v - 1", v: "target.v / 7" }, target: items }',
    '{ expressions: { r: "target.v / 3" }, decimal_places: 0 }',
    '{ expressions: { t: "target.a * 2", __proto__: "target.t + 1" }, target: $.items, decimal_places: 1 }',
    '{ expressions: { t: "target.v" }, target: "$..[?@.v]" }',
  ],
  filter: ['{ conditions: { a: { is_not_null: true } } }', '{ target: items, conditions: { v: { is_greater_than: 0 }, a: { is_not_empty: true } } }',
    '{ conditions: { __proto__: { is_not_null: true }, v: { is_greater_than: -5, is_less_than: 5 } } }',
    '{ target: $.items, conditions: { v: { is_greater_than: 0 } } }', '{ target: "$..items", conditions: { __proto__: { is_not_null: true } } }'],
  aggregate: ['{ sum: [a, v], avg: [a], min: [b], max: [b], count: true }', '{ over: items, group_by: [a], sum: [v], key: agg }', '{}',
    '{ group_by: [__proto__, a], sum: [__proto__], min: [v], max: [v, a], avg: [v], key: __proto__ }', '{ over: items, group_by: [b.c], count: false, avg: [a] }',
    '{ over: $.items, group_by: [a], sum: [v], min: [__proto__] }', '{ over: "$.items[?@.v > 0]", count: true }'],
  compress: ['{ value: "", key: z }', '{ value: a, key: __proto__, algorithm: deflate, encoding: hex, level: 1 }'],
  decompress: ['{ value: a, key: out }', '{ value: "", key: out, json: true }', '{ value: a, key: out, algorithm: zlib, encoding: base64url }'],
  parse_xlsx: ['{ value: a, key: rows }', '{ value: "", key: rows, headers: false, limit: 2 }'],
  parse_pdf: ['{ value: a, key: text }'],
  replace_values: ['{ target_value: "***", find_str: a }', '{ target_value: null, target_key: a }', '{ target_value: x, values: ["1", "true"] }'],
  flatten: ['{ key_separator: "." }', '{ key_separator: _, prefix: p, target: items }'],
  extract_with_regex: [String.raw`{ value: a, expr: '(\d+)-(\w*)', keys: [n, w] }`, String.raw`{ value: "", expr: '^(.)', keys: [first] }`],
  extract_with_css: ['{ value: a, selector: li, key: items, all: true }', '{ value: "", selector: "a[href]", attribute: href, key: link }'],
  b64_decode: ['a', '""'], b64_decode_as_json: ['a', '""'], b64_encode: convert, yaml_to_json: convert, parse_csv: convert, to_csv: convert,
  encode_uri: convert, encode_uri_component: convert, decode_uri: convert, decode_uri_component: convert, generate_slug: convert,
  hmac: ['{ key: sig, data: a|body->a|, secret: s3cret }', '{ key: sig, data: a|body|, secret: k, algorithm: sha512, encoding: base64 }'],
  encrypt_value: [`{ key: box, data: a|body->a|, secret_key: "${AES}", nonce: abcdefghijkl }`],
  decrypt_value: [`{ key: plain, value: a|body->a|, nonce: abcdefghijkl, tag: a|body->b|, secret_key: "${AES}" }`],
  add_jwt: [`{ key: jwt, secret: "${AES}", data: [a, id], exp: 1h }`, `{ key: jwt, secret: "${AES}", data: all }`],
  read_jwt: ['{ key: claims, token: a|body->a| }'],
  totp: ['{ key: code, secret: JBSWY3DPEHPK3PXP }', '{ key: code, secret: a|body->a|, encoding: ascii, digits: 8 }'],
  s3_generate_presigned_url: [S3],
};
/** Random by design: checked for clean failures only. */
const random: Record<string, string[]> = {
  bcrypt: ['{ key: h, value: a|body->a|, cost: 4 }'],
  generate_password: ['{ key: p, length: 12 }'],
  generate_bytes: ['{ key: b, length: 8 }'],
};

// A raw JS error text in a failure means a transform crashed on data instead of checking it.
const CRASH = /Cannot read propert|is not a function|is not iterable|Maximum call stack|undefined is not|null is not|Invalid array length|is not defined|Cannot convert/i;

const RUNS = 60;
const KEYS = ['a', 'b', 'c', 'id', 'v', 'x', 'items', '__proto__', 'constructor', 'toString', '0'];
const payloads: string[] = []; // valid encoded values, filled in beforeAll
const bodies: unknown[] = []; // whole valid bodies (e.g. a ciphertext with its tag)

function arbitraries() {
  const leaf = fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 2, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.integer().map(String),
    fc.constantFrom('1-ab', '<ul><li>x</li><a href="/h">y</a></ul>', 'a,b\n1,2\n', 'k: [1, 2]', '%E2%82%AC 1', 'MTIz', 'Zm9vLGJhcg==', ...payloads),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('arr'), tie('obj')),
    arr: fc.array(tie('node'), { maxLength: 4 }),
    obj: fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 5 }),
  })).node;
  const records = fc.array(fc.dictionary(fc.constantFrom(...KEYS), leaf, { maxKeys: 6 }), { maxLength: 8 });
  const data = fc.oneof(value, records, records.map((items) => ({ items, a: 1 })), leaf, fc.constantFrom(...bodies));
  // Through JSON, as an HTTP body arrives: an own "__proto__" key, no -0 or undefined.
  return data.map((d) => JSON.parse(JSON.stringify(d ?? null)) as unknown);
}

function yamlOf(op: string, list: string[]): string {
  const ifaces = list.map((v, i) => `  v${i}:\n    method: POST\n    actions:\n      - name: T\n        input: a|body|\n        post_transforms:\n          - ${op}: ${v}\n`);
  return `interfaces:\n${ifaces.join('')}`;
}

async function runOne(plan: Plan, name: string, body: unknown): Promise<RunResult> {
  const i = plan.interfaces.find((x) => x.name === name)!;
  const request = { method: 'POST', path: i.route, params: {}, headers: { 'content-type': 'application/json' }, body, rawBody: JSON.stringify(body) };
  return executeInterface(plan, i, request, { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
}

function clean(r: RunResult, op: string): void {
  const body = r.response.body as { error?: { status?: number; message?: string } };
  if (r.response.status !== 200) {
    expect(r.response.status, `${op}: ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
    expect(typeof body?.error?.message, `${op}: error body`).toBe('string');
  }
  const err = r.state.steps.T?.error;
  if (err !== undefined) expect(err, `${op} failed unclean`).not.toMatch(CRASH);
}

beforeAll(async () => {
  setClock(() => 1_700_000_000_000); // time-based transforms must agree between the two runs
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['a', 'b'], [1, 'é😀'], [null, true]]), 'S');
  payloads.push((XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer).toString('base64'));
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('pdf text', { x: 10, y: 100, font: await doc.embedFont(StandardFonts.Helvetica) });
  payloads.push(Buffer.from(await doc.save()).toString('base64'));
  payloads.push(gzipSync('{"a":[1,2]}').toString('base64'), gzipSync('plain').toString('base64url'));
  const jwt = [{ alg: 'HS256', typ: 'JWT' }, { sub: '1' }].map((p) => Buffer.from(JSON.stringify(p)).toString('base64url')).join('.') + '.c2ln';
  payloads.push(jwt);
  const c = createCipheriv('aes-256-gcm', Buffer.from(AES), Buffer.from('abcdefghijkl'));
  const a = Buffer.concat([c.update('{"x":1}'), c.final()]).toString('base64');
  bodies.push({ a, b: c.getAuthTag().toString('base64') }, { a: jwt, id: 7 });
});
afterAll(() => setClock());

describe('transform parity: fast path = interpreter on random data', () => {
  it('every registered transform has parity variants (or is listed as random)', () => {
    const missing = Object.keys(transforms).filter((op) => !variants[op] && !random[op]);
    expect(missing, 'add variants for these transforms in test/property/transforms-parity.test.ts').toEqual([]);
  });

  for (const [op, list] of Object.entries(variants)) {
    it.skipIf(!transforms[op])(op, async () => {
      const yaml = yamlOf(op, list);
      const fast = await planOf(`${op}.yaml`, 'compiled', yaml);
      const slow = await planOf(`${op}.yaml`, 'interpreted', yaml);
      let succeeded = 0;
      await fc.assert(
        fc.asyncProperty(arbitraries(), async (body) => {
          for (let i = 0; i < list.length; i++) {
            const a = await runOne(fast, `v${i}`, body);
            const b = await runOne(slow, `v${i}`, body);
            expect(JSON.stringify(b.response), `${op} ${list[i]}`).toBe(JSON.stringify(a.response));
            clean(a, op);
            if (a.response.status === 200) succeeded++;
          }
        }),
        { numRuns: RUNS, seed: 20240301, endOnFailure: true },
      );
      // Parity of two identical failures proves little: the transform must also succeed on some inputs.
      expect(succeeded, `${op} never succeeded on the random inputs`).toBeGreaterThan(0);
    }, 30_000);
  }

  // Async transforms (spec.async: parse_pdf, bcrypt, jwt) inside nested_transforms: the nested chain
  // returns a Promise that nested_transforms must await. Not awaited, the data becomes {} and a
  // failure inside is an unhandled rejection (a crashed process); this case uses a valid PDF.
  it('an async transform inside nested_transforms is awaited on both paths', async () => {
    const yaml = yamlOf('nested_transforms', ['{ doc: [ { parse_pdf: { value: file, key: text } } ] }']);
    for (const mode of ['compiled', 'interpreted'] as const) {
      const r = await runOne(await planOf('nested_async.yaml', mode, yaml), 'v0', { doc: { file: payloads[1] } });
      expect((r.response.body as any)?.T?.doc?.text, mode).toBe('pdf text');
    }
  });

  for (const [op, list] of Object.entries(random)) {
    it.skipIf(!transforms[op])(`${op} (random output: clean failures only)`, async () => {
      const yaml = yamlOf(op, list);
      for (const mode of ['compiled', 'interpreted'] as const) {
        const plan = await planOf(`${op}.yaml`, mode, yaml);
        await fc.assert(fc.asyncProperty(arbitraries(), async (body) => {
          for (let i = 0; i < list.length; i++) clean(await runOne(plan, `v${i}`, body), op);
        }), { numRuns: 20, seed: 20240301, endOnFailure: true });
      }
    }, 30_000);
  }
});
