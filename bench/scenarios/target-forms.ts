// A generated family: the transform scenario (filter price > 10, total = price × qty, count and sum of
// total by cat) written with each spelling of its target that names the records — array-first, `$.items`,
// `$.items[*]`, `$['items'][*]`, `items`, `$.a.b[*]`, `$..items[*]`, a slice, a union and a filter —
// every answer checked identical to the same hand-written report. test/bench/target-forms.test.ts
// checks (untimed) that each compiles to one fused loop, so a spelling cannot silently fall back.
import type { Scenario } from '../scenario.ts';
import { records, report, type Rec } from './records.ts';

export interface Form {
  /** The scenario's name: `form-<slug>`. */
  slug: string;
  /** The targets of filter, math and aggregate; none for array-first. */
  filter?: string;
  math?: string;
  over?: string;
  /** Where the records sit in the posted body. */
  at: 'body' | 'items' | 'a.b';
}

export const FORMS: Form[] = [
  { slug: 'array-first', at: 'body' },
  { slug: 'items', filter: '$.items', math: '$.items', over: '$.items', at: 'items' },
  { slug: 'items-wildcard', filter: '$.items', math: '$.items[*]', over: '$.items', at: 'items' },
  { slug: 'bracket-wildcard', filter: "$['items']", math: "$['items'][*]", over: "$['items']", at: 'items' },
  { slug: 'dotted', filter: 'items', math: 'items', over: 'items', at: 'items' },
  { slug: 'nested-wildcard', filter: '$.a.b', math: '$.a.b[*]', over: '$.a.b', at: 'a.b' },
  { slug: 'descendant-wildcard', filter: '$..items', math: '$..items[*]', over: '$..items', at: 'items' },
  { slug: 'slice', filter: '$.items', math: '$.items[0:]', over: '$.items', at: 'items' },
  { slug: 'union', filter: '$.items', math: '$.items[:500,500:]', over: '$.items', at: 'items' },
  { slug: 'filter', filter: '$.items', math: '$.items[?@.price > 10]', over: '$.items', at: 'items' },
];

const q = (s: string) => JSON.stringify(s);

/** The config of one form: one interface at /form-<slug>. */
export function formConfig(f: Form): string {
  const t = (k: 'target' | 'over', v: string | undefined) => (v === undefined ? '' : `${k}: ${q(v)}, `);
  return `
interfaces:
  form:
    method: POST
    route: /form-${f.slug}
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - filter: { ${t('target', f.filter)}conditions: { price: { is_greater_than: 10 } } }
          - math: { ${t('target', f.math)}expressions: { total: "target.price * target.qty" } }
          - aggregate: { ${t('over', f.over)}group_by: [cat], sum: [total], count: true }
`;
}

/** The posted body: the 1,000 records where the form looks for them. */
export function formBody(f: Form): unknown {
  const items = records();
  return f.at === 'body' ? items : f.at === 'items' ? { page: 1, items } : { page: 1, a: { b: items } };
}

const recordsIn = (f: Form, body: unknown): Rec[] =>
  f.at === 'body' ? (body as Rec[]) : f.at === 'items' ? (body as { items: Rec[] }).items : (body as { a: { b: Rec[] } }).a.b;

export const scenarios: Scenario[] = FORMS.map((f) => ({
  name: `form-${f.slug}`,
  family: 'target-forms',
  summary: `transform, ${f.math === undefined ? 'array-first' : `filter ${f.filter}, math ${f.math}, aggregate ${f.over}`}`,
  config: formConfig(f),
  request: { method: 'POST', path: `/form-${f.slug}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(formBody(f)) },
  handWritten(app) {
    app.post(`/form-${f.slug}`, async (req) => report(recordsIn(f, req.body)));
  },
  targets: [{ of: 'fast', over: 'hand_written', min: 0.85 }, { of: 'fast', over: 'interpreter', min: 1.5 }],
}));
