// POST 1,000 records (the body is the array) → filter price > 10, total = price × qty, count and
// sum of total by cat.
import type { Scenario } from '../scenario.ts';
import { records, report, type Rec } from './records.ts';

export const scenario: Scenario = {
  name: 'transform',
  summary: 'POST 1,000 records: filter, math, aggregate by cat (array-first)',
  config: `
interfaces:
  transform:
    method: POST
    route: /transform
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - filter: { conditions: { price: { is_greater_than: 10 } } }
          - math: { expressions: { total: "target.price * target.qty" } }
          - aggregate: { group_by: [cat], sum: [total], count: true }
`,
  request: { method: 'POST', path: '/transform', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records()) },
  handWritten(app) {
    app.post('/transform', async (req) => report(req.body as Rec[]));
  },
  targets: [{ of: 'fast', over: 'hand_written', min: 0.85 }, { of: 'fast', over: 'interpreter', min: 1.5 }],
};
