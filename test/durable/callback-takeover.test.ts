// A callback claims a waiting run's token on node A, and A dies before its next checkpoint. Node B
// takes the run over after the lease: it continues with the callback's body (stored with the claim),
// not as a wait that timed out. Found by the fault harness (a resume accepted with 202, then the run
// failed "no callback arrived before the wait's timeout" with 10 minutes left). Both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, serveDurable, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const schemas: string[] = [];
const stores: PostgresStore[] = [];
beforeAll(async () => {
  up = await countingUpstream({ '/register': (_q, res) => json(res, 200, {}), '/done': (_q, res) => json(res, 200, {}) });
});
afterAll(async () => {
  for (const s of stores) await s.close();
  for (const s of schemas) await dropSchema(s);
  await up.close();
  await closeHttpPools();
});

const config = `
interfaces:
  approve:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Ask
        http: { url: a|var::API|/register, method: POST, body: { token: a|Token|, id: a|body::id| } }
      - name: Approval
        wait_for_callback: { token: a|Token|, timeout: 1h }
      - name: Done
        http: { url: a|var::API|/done, method: POST, body: { id: a|body::id|, by: a|Approval::by| } }
        output: http
`;

describe('a callback whose resuming node dies', () => {
  it.each(['compiled', 'interpreted'] as const)('%s: the node taking the run over continues with the callback', async (mode) => {
    const schema = schemaName(`cbtake_${mode.slice(0, 4)}`);
    schemas.push(schema);
    const store = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 300 });
    await store.init();
    stores.push(store);
    const plan = await planOf('approve.yaml', mode, config);
    const b = await serveDurable([plan], store, { API: up.url }, { maxDelayMs: 0, node: 'node-b', pollMs: 50 });
    try {
      const id = `cb-${mode}`;
      const r = await fetch(`${b.url}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
      expect(r.status).toBe(202);
      const token = up.hits.filter((h) => h.path === '/register').map((h) => JSON.parse(h.body) as { token: string; id: string }).find((x) => x.id === id)!.token;
      // Node A takes the callback (the claim is what POST /_ap/resume does first) and dies at once.
      const claim = await store.claimToken(token, new Date(), 'node-a', { by: 'ada' });
      expect(claim.kind).toBe('claimed');
      const done = await until(() => up.hits.find((h) => h.path === '/done' && JSON.parse(h.body).id === id), 10_000);
      expect(JSON.parse(done.body)).toEqual({ id, by: 'ada' });
      await until(async () => ((await store.loadRun((await runIdOf(store, id))!))?.status === 'succeeded' ? true : undefined));
      // The token is spent: a second callback is told so.
      expect((await fetch(`${b.url}/_ap/resume/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"by":"bob"}' })).status).toBe(409);
    } finally {
      await b.close();
    }
  }, 30_000);
});

async function runIdOf(store: PostgresStore, id: string): Promise<string | undefined> {
  const r = await store.pool.query(`SELECT id FROM ${store['s' as never] as string}.runs WHERE state::text LIKE $1`, [`%"${id}"%`]);
  return r.rows[0]?.id as string | undefined;
}
