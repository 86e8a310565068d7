// The guide's signed-webhook example, as printed: `check` passes it without a gate warning (and warns
// when its gate is removed), and served in both paths against real Postgres and a chat upstream, a
// forged signature answers 422 with nothing written or sent, a valid one writes once and notifies once.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { pgSchema } from '../database/helpers.ts';
import { check } from '../schema/helpers.ts';

const guide = readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8');
const example = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((y) => y.includes('name: Verify'))!;
const SECRET = 'whsec_0123456789abcdef';

let db: Awaited<ReturnType<typeof pgSchema>>;
let chat: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  db = await pgSchema('hook');
  await db.sql('CREATE TABLE events (id text, payload jsonb)');
  chat = await countingUpstream({ '/chat': (_req, res) => json(res, 200, { ok: true }) });
});
afterAll(async () => { await closeDatabasePools(); await closeHttpPools(); await chat.close(); await db.drop(); });

const gateWarnings = (yaml: string) => check(yaml).filter((d) => d.message.includes('an assert never stops later actions'));

describe('the guide\'s signed webhook', () => {
  it('passes check without a gate warning; without its gate, check warns at Save and what follows it', () => {
    expect(check(example).filter((d) => d.severity === 'error')).toEqual([]);
    expect(gateWarnings(example)).toEqual([]);
    const ungated = example.replace(/ {8}run_on_assertion:\n(?: {10}.*\n)+/, '');
    expect(ungated).not.toContain('run_on_assertion');
    expect(gateWarnings(ungated).map((d) => d.message)).toEqual([
      'action "Save" (a database write) runs even when the assert of "Verify" fails: an assert never stops later actions',
      'action "Notify" (a POST request) runs even when the assert of "Verify" fails: an assert never stops later actions',
    ]);
  });

  it.each(['compiled', 'interpreted'] as const)('forged: 422, nothing written or sent; signed: one row, one notification (%s)', async (mode) => {
    const plan = await planOf(`guide-hook-${mode}.yaml`, mode, example);
    const i = plan.interfaces[0]!;
    const post = (body: unknown, signature: string) => {
      const raw = JSON.stringify(body);
      return executeInterface(plan, i, { method: 'POST', path: '/hook', params: {}, headers: { 'x-signature': signature }, body, rawBody: raw }, {
        trigger: 'test', env: testEnv({ CHAT_URL: `${chat.url}/chat` }, { DB_URL: db.url, HOOK_SECRET: SECRET }), services: { clock: systemClock },
      });
    };
    const id = `evt-${mode}`;
    const forged = await post({ id, amount: 1 }, 'sha256=' + '0'.repeat(64));
    expect(forged.response.status).toBe(422);
    expect(await db.sql('SELECT id FROM events WHERE id = $1', [id])).toEqual([]);
    const sentBefore = chat.count('/chat');
    const body = { id, amount: 2 };
    const signed = await post(body, createHmac('sha256', SECRET).update(JSON.stringify(body)).digest('hex'));
    expect(signed.response.status).toBe(200);
    expect(await db.sql('SELECT payload FROM events WHERE id = $1', [id])).toEqual([{ payload: body }]);
    expect(chat.count('/chat') - sentBefore).toBe(1);
    expect(JSON.parse(chat.hits.at(-1)!.body)).toEqual({ text: `event ${id} stored` });
  });
});
