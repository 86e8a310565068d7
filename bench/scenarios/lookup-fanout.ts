// POST 100 ids → one upstream GET per id, 10 at a time, results in order.
import { Pool } from 'undici';
import type { Scenario } from '../scenario.ts';

const IDS = Array.from({ length: 100 }, (_, i) => i + 1);

export const scenario: Scenario = {
  name: 'lookup-fanout',
  summary: 'POST 100 ids → 100 upstream GETs, 10 at a time',
  config: `
interfaces:
  fanout:
    method: POST
    route: /fanout
    actions:
      - name: Items
        lookup: a|body::ids|
        lookup_concurrency: 10
        output: http
        actions:
          - name: Item
            url: a|var::UPSTREAM|/item/a|body|
`,
  request: { method: 'POST', path: '/fanout', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ids: IDS }) },
  handWritten(app, { upstream }) {
    const pool = new Pool(upstream);
    app.post('/fanout', async (req) => {
      const ids = (req.body as { ids: number[] }).ids;
      const out: unknown[] = new Array(ids.length);
      let next = 0;
      const worker = async () => {
        while (next < ids.length) {
          const i = next++;
          const res = await pool.request({ method: 'GET', path: `/item/${encodeURIComponent(String(ids[i]))}` });
          out[i] = await res.body.json();
        }
      };
      await Promise.all(Array.from({ length: Math.min(10, ids.length) }, worker));
      return out;
    });
  },
  targets: [{ of: 'fast', over: 'hand_written', min: 0.85 }],
  // Each request is 100 upstream calls: 4 callers keep every server busy without a queue.
  connections: 4,
};
