// Compiled programs of the constructs that walk values (recursive defs, paths, updates, contains) on
// 10,000-deep inputs (jq's own nesting limit): never a crash; the answer is the engine's (deep calls are
// handed to it by jq.deeper / jq.enter).
import { afterAll, describe, expect, it } from 'vitest';
import { compileJq } from '../../compiler/jq/compile.ts';
import { jqAll } from '../../runtime/jq/engine.ts';
import { load, outcome } from './harness.ts';
import { configureJqBounds } from '../../runtime/jq/bounds.ts';

afterAll(() => { configureJqBounds({}); });
// Conformance and stress cases, some slow on a loaded machine: not the time bound's subject (test/security/jq-bounds.test.ts).
configureJqBounds({ SERVICE__JQ_TIMEOUT_MS: '60000' });

const PROGRAMS = [
  '[..] | length',
  '[paths] | length',
  'walk(.) | tojson | length',
  'flatten | length',
  'del(.[0]) | tojson | length',
  'getpath([range(9998) | 0]) | tojson',
  'setpath([range(9998) | 0]; 1) | tojson | length',
  '.[0] |= length',
  'contains(.)',
  'reduce range(100) as $i (.; [.]) | tojson | length',
];

describe('compiled jq on 10,000-deep values', { timeout: 240_000 }, () => {
  let deep: unknown = [];
  for (let i = 0; i < 9999; i++) deep = [deep];
  for (const p of PROGRAMS) {
    it(p, () => {
      const code = compileJq(p);
      expect(code, 'compiles').not.toBeNull();
      expect(outcome(() => load(code!.code)(deep))).toEqual(outcome(() => jqAll(p, deep)));
    });
  }
});
