// Issue 29 (5): the resume token, the only credential of a waiting run, is never written: not in the
// request line (the text fast path and pino's), however the path spells it, and not in the stored
// run record (GET /_ap/runs/<id>, the runs table). Both paths, a real Postgres store, the real logger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { admin, dropSchema, freshSchema, PG_URL } from '../store/pg.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { capturedLog, serveWith, until } from '../ops/helpers.ts';

const CONFIG = `
interfaces:
  approval:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Ask
        http: { url: a|var::API|/register, method: POST, body: { token: a|Token| } }
      - name: Approval
        wait_for_callback: { token: a|Token|, timeout: 1h }
      - name: Result
        input: { approved: a|Approval::approved| }
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
let store: PostgresStore;
const schema = freshSchema('resume_log');
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  up = await countingUpstream({ '/register': (_q, res) => json(res, 200, { ok: true }) });
  store = new PostgresStore({ url: PG_URL, schema });
  await store.init();
});
afterAll(async () => { for (const c of closers) await c(); await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('the request lines and the run record never hold the token', async () => {
    const env = processEnvironment({ SERVICE__VAR__API: up.url }); // random uuids, as served
    const { log, lines } = capturedLog(env);
    const plans = [await planOf('resume.yaml', mode, CONFIG)];
    const services = { clock: systemClock, store, maxDelayMs: 100 };
    const { app, url } = await serveWith(plans, env, { store, log, maxDelayMs: 100 });
    const resumer = startResumer({ plans, store, env, services, node: 'node-a', pollMs: 50 });
    closers.push(async () => { await resumer.stop(); await app.close(); });

    const started = await fetch(`${url}/approval`, { method: 'POST' });
    expect(started.status, await started.clone().text()).toBe(202);
    const runId = ((await started.json()) as { run_id: string }).run_id;
    const token = (JSON.parse(up.hits.at(-1)!.body) as { token: string }).token;
    expect(token.length).toBeGreaterThan(15);

    const stored = await admin((c) => c.query(`SELECT state::text AS s FROM "${schema}".runs WHERE id = $1`, [runId]));
    expect(stored.rows[0].s).toContain('"wake"');
    expect(JSON.parse(stored.rows[0].s).wake.token).toBe('[token]');
    const status = await (await fetch(`${url}/_ap/runs/${runId}`)).text();
    expect(status).not.toContain(token);

    // Spellings that reach (or miss) the route: each line shows the masked path, never the token.
    const half = token.slice(0, 8);
    const statuses: number[] = [];
    for (const path of [`/_ap/resume/${token}x`, `/_ap/resume/${token}/more`, `/_AP/resume/${token}`, `/_ap/%72esume/${token}?a=1`]) {
      statuses.push((await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved":true}' })).status);
    }
    expect(statuses).toEqual([404, 404, 404, 202]); // the route is found through a percent escape too
    await until(async () => ((await (await fetch(`${url}/_ap/runs/${runId}`)).json()) as { status: string }).status === 'succeeded' || undefined);

    const requestLines = lines.filter((l) => l.msg === 'request');
    const resumeLines = requestLines.filter((l) => l.path === '/_ap/resume/[token]');
    expect(resumeLines.length).toBe(4);
    expect(resumeLines.map((l) => l.status)).toContain(202);
    const all = JSON.stringify(lines);
    expect(all).not.toContain(token);
    expect(all).not.toContain(half);
    const after = await admin((c) => c.query(`SELECT state::text AS s FROM "${schema}".runs WHERE id = $1`, [runId]));
    expect(JSON.stringify(JSON.parse(after.rows[0].s).wake ?? {})).not.toContain(half);
  });
});
