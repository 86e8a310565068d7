// The generated module writes fixed transforms as loops over known field names (no generic call,
// no argument object), and fuses a chain's record stages into one loop with the stages one by one
// kept for data the loop leaves (compiler/codegen/specialise/).
import { describe, expect, it } from 'vitest';
import { generateModule } from '../../compiler/codegen/module.ts';
import { irOf } from '../support/plans.ts';

const moduleOf = (steps: string[]) => generateModule(irOf('s.yaml',
  `interfaces:\n  s:\n    method: POST\n    actions:\n      - name: T\n        input: a|body|\n        post_transforms:\n${steps.map((x) => `          - ${x}\n`).join('')}`));

describe('specialised transforms in the generated module', () => {
  it('filter → math → aggregate: one fused loop, math fields in variables, no record copied', async () => {
    const text = await moduleOf([
      '{ filter: { conditions: { price: { is_greater_than: 10 } } } }',
      '{ math: { expressions: { total: "target.price * target.qty" } } }',
      '{ aggregate: { group_by: [cat], sum: [total], count: true } }',
    ]);
    expect(text).not.toContain('rt.transforms.');
    const fused = /function s_T_post_fused\(d: unknown, s: rt\.Scope\): unknown \{\n[\s\S]*?\n\}\n/.exec(text)?.[0] ?? '';
    expect(fused).toContain('for (const el of list)');
    // Every element a record (others go to the stages one by one): plain names read plainly.
    expect(fused).toContain('if (r === null || typeof r !== "object" || Array.isArray(r)) return rt.sp.UNFUSED;\n      const v0 = r.price;');
    expect(fused).toContain('const m1 = s_T_post_math_expressions_0_total_calc(r);');
    expect(fused).toContain('const x0 = typeof m1 === "number" ? m1 : rt.sp.toNumber(m1);');
    expect(fused).toContain('const k0 = r.cat ?? null;');
    // The buckets keep what is asked: a count and a sum.
    expect(fused).toContain('const all = { n: 0, s0: 0 };');
    // The expression's function is called on records only: it reads its fields plainly.
    expect(text).toMatch(/: \(target: rt\.Rec\) => unknown = \(target\) =>\s+calc\.fin\(calc\.mul\(target\["price"\], target\["qty"\]\)\)/);
    expect(fused).not.toContain('copyRecord');
    expect(text).toMatch(/const r1 = s_T_post_fused\(d, s\);\n {2}if \(r1 !== rt\.sp\.UNFUSED\) d = r1;\n {2}else \{/);
  });

  it('under a $.name target: the loop runs on that field', async () => {
    const text = await moduleOf([
      '{ filter: { target: $.items, conditions: { price: { is_greater_than: 10 } } } }',
      '{ aggregate: { over: $.items, sum: [price] } }',
    ]);
    expect(text).toContain('const list = rt.sp.listAt(d, ["items"], false);');
  });

  it('math picked by a JSONPath filter in a fused loop: the test for records reads plain names plainly', async () => {
    const text = await moduleOf([
      '{ filter: { target: $.items, conditions: { price: { is_greater_than: 10 } } } }',
      '{ math: { target: "$.items[?@.price > 10 && @.length > 1 && @.a.b == 1]", expressions: { total: "target.price * target.qty" } } }',
      '{ aggregate: { over: $.items, sum: [total] } }',
    ]);
    // The math alone tests any element (jp.prop); the fused loop, records only.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('return (x: unknown): boolean => ( jp.numGt(jp.prop(x, "price"), 10) && ( jp.numGt(jp.prop(x, "length"), 1) && jp.cmp(jp.some(jp.prop(jp.prop(x, "a"), "b")), "==", 1)');
    expect(flat).toContain('return (x: rt.Rec): boolean => ( jp.numGt(x["price"], 10) && ( jp.numGt(jp.prop(x, "length"), 1) && jp.cmp(jp.some(jp.prop(x["a"], "b")), "==", 1)');
    expect(text).toContain('const picks1 = s_T_post_where_on_record(d);');
    expect(text).toContain('const p1 = picks1(r);');
  });

  it('a stage reading a math field gets the written record', async () => {
    const text = await moduleOf(['{ math: { expressions: { a: "target.v + 1" } } }', '{ filter: { conditions: { a: { is_greater_than: 0 } } } }']);
    expect(text).toMatch(/const m0 = .*\(r\);\n\s+r = rt\.sp\.copyRecord\(r\);\n\s+r\.a = m0;\n\s+const v1 = /);
  });

  it('keep_attributes, rename_attributes, add_attribute and group_by: loops over known names, no generic call', async () => {
    const text = await moduleOf([
      '{ add_attribute: { source: api, n: a|body->0->id| } }',
      '{ rename_attributes: { name: title, title: name } }',
      '{ keep_attributes: [id, title, __proto__] }',
      '{ group_by: [source, id] }',
    ]);
    expect(text).not.toContain('rt.transforms.');
    expect(text).toContain('const a1 = (a as Record<string, unknown>).n;');
    expect(text).toMatch(/const out = rt\.sp\.copyRecord\(rec\);\n\s+out\.source = a0;\n\s+out\.n = a1;/);
    expect(text).toContain('if (k === "name" && h0) {');
    expect(text).toContain('if (Object.hasOwn(rec, "title")) out.title = rec.title;');
    expect(text).toContain('if (Object.hasOwn(rec, "__proto__")) rt.sp.setOwn(out, "__proto__", rec.__proto__);');
    expect(text).toMatch(/const key =\s+rt\.sp\.groupText\(rt\.sp\.lookup\(el, \w+\)\) \+\s+"\|" \+/);
  });

  it('dotted names keep the generic transform', async () => {
    const text = await moduleOf(['{ keep_attributes: [id, user.name] }', '{ add_attribute: { meta.source: api } }']);
    expect(text).toContain('rt.transforms.keep_attributes.run');
    expect(text).toContain('rt.transforms.add_attribute.run');
  });
});
