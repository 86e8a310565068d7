// Which failures retry.on / except select, request to response on both paths: several `on`
// entries each select, and an HTTP failure that is neither a status nor a transport class (a body
// that does not decode as its declared data_type) is never retried, even under on: [any].
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { runBoth } from '../support/run-both.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  up = await countingUpstream({
    '/status/*': (req, res) => json(res, Number(req.url!.split('/')[2]!.split('?')[0]), {}),
    '/broken/*': (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"half": '); },
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

let n = 0;
/** Hits on both paths together (runBoth runs the config twice). */
async function attempts(path: string, http: string, retry: string) {
  const p = `${path}?t=${++n}`;
  const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        url: a|var::API|${p}
        http: { ${http} }
        retry: { attempts: 3, delay: 1, jitter: none, ${retry} }
`, 'x', {}, { API: up.url });
  return { hits: up.hits.filter((h) => h.path === p).length / 2, response: r.response, step: r.state.steps.A! };
}

describe('retry.on with several entries', () => {
  it('retries a status that any one entry selects', async () => {
    expect((await attempts('/status/404', 'method: GET', 'on: [503, 404]')).hits).toBe(3);
    expect((await attempts('/status/503', 'method: GET', 'on: [404, 5xx]')).hits).toBe(3);
    expect((await attempts('/status/409', 'method: GET', 'on: [404, 5xx]')).hits).toBe(1);
  });
  it('except wins over on, and any entry of except excludes', async () => {
    expect((await attempts('/status/503', 'method: GET', 'on: [any], except: [404, 503]')).hits).toBe(1);
    expect((await attempts('/status/502', 'method: GET', 'on: [any], except: [404, 503]')).hits).toBe(3);
  });
});

describe('failures that are neither status nor transport', () => {
  it('a body that does not decode as its data_type fails once, even under on: [any]', async () => {
    const r = await attempts('/broken/x', 'method: GET, data_type: json', 'on: [any]');
    expect(r.hits).toBe(1);
    expect(r.step.attempts).toBe(1);
    expect(r.response.status).toBe(500);
  });
});
