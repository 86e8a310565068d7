// Compiled JSONPath places (compiler/jsonpath/places.ts, runtime/jsonpath/ops.ts stepPlaces): the forms
// the compiler walks itself select the same places, in the same order, as json-p3 does at run time;
// other forms are left to the engine; and a transform `target` of such a form answers the same
// through the fast path and the interpreter.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { memberNames, placeSteps } from '../../compiler/jsonpath/places.ts';
import { stepPlaces } from '../../runtime/jsonpath/ops.ts';
import { jsonPathPlaces } from '../../runtime/jsonpath/query.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';

const PATHS = ['$.a', '$.a.b', '$.a[*]', '$.a[*].b', '$.a.*.b', '$.*', '$[*].a', '$.a[*][*]', '$.__proto__', '$.constructor[*]', '$.a_1.*'];

describe('compiled JSONPath places', () => {
  it('parses only names and wildcards', () => {
    expect(placeSteps('$.a[*].b')).toEqual(['a', null, 'b']);
    expect(placeSteps('$.a.*')).toEqual(['a', null]);
    for (const src of ['$', '$.my-items', '$..a', '$.a[0]', "$['a']", '$.a[?@.b]', '$.a[*', ' $.a', '$.é', 'a.b']) expect(placeSteps(src), src).toBeUndefined();
    expect(memberNames('$.a.b')).toEqual(['a', 'b']);
    expect(memberNames('$.a[*]')).toBeUndefined();
  });

  it('selects what json-p3 selects, in its order', () => {
    const key = fc.constantFrom('a', 'b', 'a_1', '__proto__', 'constructor', '0', '10', 'x');
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, 1, 'a', true), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
    })).v;
    // JSON text, parsed: `__proto__` becomes an own key, as in request bodies.
    fc.assert(fc.property(value, fc.constantFrom(...PATHS), (v, path) => {
      const data = JSON.parse(JSON.stringify(v));
      expect(stepPlaces(data, placeSteps(path)!)).toEqual(jsonPathPlaces(path, data).map((p) => ({ v: p.v, at: p.at })));
    }), { numRuns: 400 });
  });

  it('a wildcard target answers the same on both paths', async () => {
    const yaml = `
interfaces:
  wild:
    method: POST
    route: /wild
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - math: { target: "$.orders[*].lines", expressions: { n: "target.a * 2" } }
          - filter: { target: "$.orders.*.lines", conditions: { a: { is_greater_than: 1 } } }
`;
    const body = { orders: [{ lines: [{ a: 1 }, { a: 2 }] }, { lines: [{ a: 3 }], z: { lines: 1 } }, { other: 1 }, 5, { lines: [{ a: '4' }, null] }] };
    const answers = [];
    for (const mode of ['compiled', 'interpreted'] as const) {
      const plan = await planOf('wild.yaml', mode, yaml);
      const r = await executeInterface(plan, plan.interfaces[0]!, { method: 'POST', path: '/wild', params: {}, headers: {}, body, rawBody: JSON.stringify(body) }, { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
      answers.push(JSON.stringify([r.response.status, r.response.body]));
    }
    expect(answers[0]).toBe(answers[1]);
    expect(JSON.parse(answers[0]!)[0]).toBe(200);
  });
});
