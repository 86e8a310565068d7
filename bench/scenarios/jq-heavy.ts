// POST 1,000 records → one jq program that selects, reshapes, groups and sums.
import type { Scenario } from '../scenario.ts';
import { records, type Rec } from './records.ts';

const JQ = '[.items[] | select(.price > 10) | {id, cat, total: (.price * .qty)}] | group_by(.cat) | map({cat: .[0].cat, count: length, total: (map(.total) | add), top: (max_by(.total) | .id)})';

export const scenario: Scenario = {
  name: 'jq-heavy',
  summary: 'POST 1,000 records: select, group_by, add in one jq program',
  config: `
interfaces:
  jq_heavy:
    method: POST
    route: /jq
    actions:
      - name: Report
        input: a|body|
        output: http
        post_transforms:
          - extract_with_jq: ${JSON.stringify(JQ)}
`,
  request: { method: 'POST', path: '/jq', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: records() }) },
  handWritten(app) {
    app.post('/jq', async (req) => {
      const rows = (req.body as { items: Rec[] }).items.filter((it) => it.price > 10).map((it) => ({ id: it.id, cat: it.cat, total: it.price * it.qty }));
      const groups = new Map<string, typeof rows>();
      for (const r of rows) (groups.get(r.cat) ?? groups.set(r.cat, []).get(r.cat)!).push(r);
      // jq's group_by sorts groups by key; max_by keeps the last of equal maxima.
      return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([cat, g]) => ({
        cat, count: g.length, total: g.reduce((a, r) => a + r.total, 0),
        top: g.reduce((best, r) => (r.total >= best.total ? r : best)).id,
      }));
    });
  },
  targets: [{ of: 'fast', over: 'interpreter', min: 5 }],
};
