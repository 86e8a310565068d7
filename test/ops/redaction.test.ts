// Issue 9 (4), both paths: a secret an upstream echoes (Authorization header, URL) never reaches the
// client's error body, the log, the stored run or GET /_ap/runs/<id>; memory and Postgres stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import type { Store } from '../../runtime/store-types.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { admin, dropSchema, freshSchema, PG_URL } from '../store/pg.ts';
import { capturedLog, secretEnv, serveWith, until } from './helpers.ts';

const SECRET = 's3cr3t-t0ken-value';
const CONFIG = `
interfaces:
  echo:
    actions:
      - name: Up
        url: a|var::API|/echo?key=a|secret::TOKEN|
        http: { headers: { Authorization: "Bearer a|secret::TOKEN|" } }
    show_error_detail: true
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const schema = freshSchema('redact');
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  // The upstream echoes what it was sent, and fails, so the echo lands in the error's data.
  up = await countingUpstream({ '/echo': (req, res) => json(res, 500, { you_sent: { authorization: req.headers.authorization, url: req.url } }) });
});
afterAll(async () => { for (const c of closers) await c(); await up.close(); await closeHttpPools(); await dropSchema(schema); });

const stores: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => new MemoryStore()],
  ['postgres', async () => { const s = new PostgresStore({ url: PG_URL, schema }); await s.init(); closers.push(() => s.close()); return s; }],
];

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it.each(stores)('error body, log and run record (%s store) carry [redacted], never the secret', async (kind, open) => {
    const store = await open();
    const env = secretEnv({ API: up.url }, { TOKEN: SECRET });
    const { log, lines } = capturedLog(env);
    const { app, url } = await serveWith([await planOf('redact.yaml', mode, CONFIG)], env, { store, log });
    closers.push(() => app.close());
    const res = await fetch(`${url}/echo`);
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(text).not.toContain(SECRET);
    const body = JSON.parse(text) as { error: { data: { you_sent: { authorization: string; url: string } }; detail: string } };
    expect(body.error.data.you_sent).toEqual({ authorization: 'Bearer [redacted]', url: '/echo?key=[redacted]' });
    expect(body.error.detail).not.toContain(SECRET);

    const runId = res.headers.get('x-run-id')!;
    const run = await until(async () => { const r = await fetch(`${url}/_ap/runs/${runId}`); return r.status === 200 ? r.text() : undefined; });
    expect(run).not.toContain(SECRET);
    expect(JSON.parse(run)).toMatchObject({ id: runId, status: 'failed', outcome: { http_code: 502 } });
    if (kind === 'postgres') {
      const stored = await admin((c) => c.query(`SELECT state::text AS s FROM "${schema}".runs WHERE id = $1`, [runId]));
      expect(stored.rows[0].s).toContain('[redacted]');
      expect(stored.rows[0].s).not.toContain(SECRET);
    }
    const logged = JSON.stringify(lines);
    expect(logged).toContain('action \\"Up\\" failed');
    expect(logged).not.toContain(SECRET);
  });
});
