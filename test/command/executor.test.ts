// The command action through the one executor, in both paths: lookup fan-out (each item one
// argument), an assert on its output that fails is retried (non-HTTP rule), and a long retry wait
// suspends the run in the durable store (Postgres) and the resumed attempt succeeds.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface, resumeRun } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { MODES, PG_BASE, runner, uniqueName } from '../database/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-cmd-exec-'));
let store: PostgresStore;
const schema = uniqueName('cmdstore');
beforeAll(async () => { store = new PostgresStore({ url: PG_BASE, schema }); await store.init(); });
afterAll(async () => {
  await store.close();
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(MODES)('command through the executor (%s)', (mode) => {
  it('fans out over a lookup, one argument per item', async () => {
    const run = await runner(`cmd-lookup-${mode}.yaml`, `
interfaces:
  each:
    actions:
      - name: Each
        lookup: a|body::names|
        actions:
          - name: Say
            command: { run: "/usr/bin/printf <%s> a|body|" }
            output_stdout: true
            post_transforms:
              - keep_attributes: [stdout]
`, mode);
    const r = await run('each', { body: { names: ['Ada', 'x; rm -rf /', '$(id)'] } });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({ Each: [{ stdout: '<Ada>' }, { stdout: '<x; rm -rf />' }, { stdout: '<$(id)>' }] });
  });

  it('a failed assert on the output is retried until it passes', async () => {
    const counter = join(dir, `assert-${mode}`);
    const run = await runner(`cmd-assert-${mode}.yaml`, `
interfaces:
  a:
    show_error_detail: true
    actions:
      - name: Count
        command: { shell: true, run: 'echo x >> a|body::f|; wc -l < a|body::f|' }
        output_stdout: true
        retry: { attempts: 3, delay: 0, jitter: none }
        assert:
          tests:
            - value: a|Count::stdout|
              is_equal_to: "2\\n"
`, mode);
    const r = await run('a', { body: { f: counter } });
    expect(r.response.status).toBe(200);
    expect(r.state.steps.Count).toMatchObject({ attempts: 2, data: { stdout: '2\n' } });
  });

  it('a long retry wait suspends the run durably; the resumed attempt succeeds', async () => {
    const flag = join(dir, `flag-${mode}`);
    const plan = await planOf(`cmd-suspend-${mode}.yaml`, mode, `
interfaces:
  s:
    actions:
      - name: Check
        command: { run: "/usr/bin/test -e a|body::f|" }
        retry: { attempts: 3, delay: 60000, jitter: none }
`);
    const env = testEnv();
    const services = { clock: systemClock, store, maxDelayMs: 1000 };
    const first = await executeInterface(plan, plan.interfaces[0]!, { method: 'POST', path: '/s', params: {}, headers: {}, body: { f: flag }, rawBody: '' }, { trigger: 'test', env, services });
    expect(first.response.status).toBe(202);
    expect(first.state.retry).toMatchObject({ action: 'Check', attempts: 1 });
    writeFileSync(flag, '');
    const resumed = await resumeRun(plan, first.state, { kind: 'wake' }, { env, services });
    expect(resumed.response.status).toBe(200);
    expect(resumed.response.body).toEqual({ Check: { exit_code: 0 } });
    expect(resumed.state.steps.Check!.attempts).toBe(2);
    expect(existsSync(flag)).toBe(true);
  });
});
