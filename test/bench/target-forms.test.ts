// The bench family bench/scenarios/target-forms.ts, untimed: every spelling of the transform scenario's
// targets compiles to one fused filter → math → aggregate loop on the array (the generated module names
// it, and asks no engine for the places), so a form cannot silently fall back to the general path; and
// both paths answer what the hand-written report answers, byte for byte.
import { describe, expect, it } from 'vitest';
import { generateModule } from '../../compiler/codegen/module.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { FORMS, formBody, formConfig, scenarios } from '../../bench/scenarios/target-forms.ts';
import { records, report } from '../../bench/scenarios/records.ts';
import { irOf, planOf, postRequest, testEnv } from '../support/plans.ts';

const expected = JSON.stringify(report(records()));

describe('target forms bench family', () => {
  it('has one scenario per form, each with its own route', () => {
    expect(scenarios.map((s) => s.request.path)).toEqual(FORMS.map((f) => `/form-${f.slug}`));
  });

  // The forms that take every record (array-first, `$.items`, `$.items[*]`, `$['items'][*]`, `items`,
  // `$.a.b[*]`, `$..items[*]`) mean the same work: their fused loops are the same code but for the
  // line that finds the array.
  it('every form that takes all the records compiles to the same loop but for finding the array', async () => {
    const loopOf = async (f: (typeof FORMS)[number]) => {
      const text = await generateModule(irOf('form.yaml', formConfig(f)));
      const loop = /\nfunction form_Report_post_fused\([\s\S]*?\n\}\n/.exec(text)![0];
      return loop.replace(/\n {2}const list = [^\n]*\n/, '\n');
    };
    const slugs = ['array-first', 'items', 'items-wildcard', 'bracket-wildcard', 'dotted', 'nested-wildcard', 'descendant-wildcard'];
    const all = slugs.map((slug) => FORMS.find((f) => f.slug === slug)!);
    const first = await loopOf(all[0]!);
    for (const f of all.slice(1)) expect(await loopOf(f), f.slug).toBe(first);
  });

  // Hostile values through the fused loop's fast reads (plain fields, a number tested before toNumber,
  // the filter pick's test for records): both paths give one answer, records only (the loop runs to
  // the end) and with an element that is not a record (the stages one by one).
  const hostile: unknown[] = [
    { price: 20, qty: 2, cat: 'books' }, { price: -0, qty: 3, cat: 'books' }, { price: NaN, qty: 1, cat: 'toys' },
    { price: Infinity, qty: 1, cat: 'toys' }, { price: 1e308, qty: 10, cat: 'toys' }, { price: 11, qty: -0, cat: 'books' },
    { price: '20', qty: 2, cat: 'books' }, { price: ' 30 ', qty: '2', cat: 'x' }, { price: 12, qty: 'abc', cat: null },
    { price: 13, qty: null, cat: 5 }, { price: 14, qty: {}, cat: { a: 1 } }, { price: 15, qty: [2], cat: [1] },
    { price: 16, qty: true }, { price: null, qty: 1, cat: 'books' }, { price: 2 ** 53 + 2, qty: 3, cat: 'books' },
    { price: 5e-324, qty: 1, cat: 'toys' }, { qty: 4, cat: 'toys' }, { price: 17, qty: 1e308, cat: 'toys' },
    { price: 18, qty: -1e308, cat: 'toys' }, { price: 10.5, qty: 1, cat: '__proto__', total: 'x' },
  ];
  const bodyWith = (f: (typeof FORMS)[number], items: unknown[]) => (f.at === 'body' ? items : f.at === 'items' ? { page: 1, items } : { page: 1, a: { b: items } });
  for (const f of FORMS) {
    it(`${f.slug}: hostile values answer alike on both paths`, async () => {
      const yaml = formConfig(f);
      const plans = [await planOf('form.yaml', 'compiled', yaml), await planOf('form.yaml', 'interpreted', yaml)];
      for (const items of [hostile, [...hostile, null], [...hostile, 'text'], [[1], ...hostile]]) {
        const answers = await Promise.all(plans.map(async (plan) => {
          const i = plan.interfaces[0]!;
          const r = await executeInterface(plan, i, postRequest(i.route, bodyWith(f, items)), { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
          return JSON.stringify(r.response);
        }));
        expect(answers[0]).toBe(answers[1]);
        expect(answers[0]).toContain('"status":200');
      }
    });
  }

  for (const f of FORMS) {
    it(`${f.slug}: one fused loop on the array, and the hand-written answer on both paths`, async () => {
      const yaml = formConfig(f);
      const text = await generateModule(irOf('form.yaml', yaml));
      const fused = /\/\/ [^\n]*filter → math → aggregate, fused[^\n]*\nfunction (form_Report_post_fused)\(d: unknown, s: rt\.Scope\): unknown \{\n[\s\S]*?\n\}\n/.exec(text);
      expect(fused, 'the fused loop').not.toBeNull();
      expect(fused![0]).toContain(f.at === 'body' ? 'const list = Array.isArray(d) ? d : undefined;' : 'const list = rt.sp.listAt(d, ');
      expect(fused![0]).not.toMatch(/jsonPath|Places|atTargets/);
      expect(text).toContain(`const r1 = ${fused![1]}(d, s);`);
      expect(text).not.toContain('rt.transforms.');
      for (const mode of ['compiled', 'interpreted'] as const) {
        const plan = await planOf('form.yaml', mode, yaml);
        const i = plan.interfaces[0]!;
        const r = await executeInterface(plan, i, postRequest(i.route, formBody(f)), { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
        expect(JSON.stringify(r.response.body), mode).toBe(expected);
      }
    });
  }
});
