// GET → one upstream GET → its JSON body, unchanged.
import { Pool } from 'undici';
import type { Scenario } from '../scenario.ts';

export const scenario: Scenario = {
  name: 'passthrough',
  summary: 'GET → upstream GET → its JSON body',
  config: `
interfaces:
  passthrough:
    method: GET
    route: /passthrough
    actions:
      - name: Upstream
        url: a|var::UPSTREAM|/data
        output: http
`,
  request: { method: 'GET', path: '/passthrough' },
  handWritten(app, { upstream }) {
    const pool = new Pool(upstream);
    app.get('/passthrough', async () => {
      const res = await pool.request({ method: 'GET', path: '/data' });
      return res.body.json();
    });
  },
  targets: [{ of: 'fast', over: 'hand_written', min: 0.85 }],
};
