// The transform scenario with the records inside an object, reached through JSONPath `target`/`over`.
import type { Scenario } from '../scenario.ts';
import { records, report, type Rec } from './records.ts';

export const scenario: Scenario = {
  name: 'transform-target',
  summary: 'the same over {items: [...]} with JSONPath target/over',
  config: `
interfaces:
  transform_target:
    method: POST
    route: /transform-target
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - filter: { target: $.items, conditions: { price: { is_greater_than: 10 } } }
          - math: { target: $.items, expressions: { total: "target.price * target.qty" } }
          - aggregate: { over: $.items, group_by: [cat], sum: [total], count: true }
`,
  request: { method: 'POST', path: '/transform-target', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: 1, items: records() }) },
  handWritten(app) {
    app.post('/transform-target', async (req) => report((req.body as { items: Rec[] }).items));
  },
  targets: [{ of: 'fast', over: 'hand_written', min: 0.85 }, { of: 'fast', over: 'interpreter', min: 1.5 }],
};
