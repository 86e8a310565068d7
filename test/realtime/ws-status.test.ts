// What a socket frame counts as success: a run that did not fail and answered below 400. A run
// answered 400 without failing, or a failed one answered 200 by its response_on_error, is an error
// frame (both paths).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../runtime/server/app.ts';
import { MemoryStore } from '../../runtime/store/index.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { open } from './helpers.ts';

/** A public socket interface whose one action succeeds and answers `code`. */
const answering = (name: string, code: number) => `
  ${name}:
    ws: true
    public: true
    actions:
      - name: Pick
        input: a|body|
        output: http
        response_on_success: { http_code: ${code} }`;

const config = `
interfaces:${answering('answers', 399)}${answering('refuses', 400)}
  forgives:
    ws: true
    public: true
    actions:
      - name: Check
        input: a|body|
        output: http
        assert:
          tests: [{ value: a|body::n|, is_greater_than: 0 }]
        response_on_error: { http_code: 200 }
`;

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`socket frames: success is a run that did not fail and answered below 400 (${mode})`, () => {
    let app: FastifyInstance;
    let base: string;
    beforeAll(async () => {
      const plan = await planOf('ws-status.yaml', mode, config);
      app = buildApp([plan], { env: testEnv(), services: { clock: systemClock, store: new MemoryStore() }, org: 'acme', environment: 'prod' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => { await app.close(); });

    it('answered 399: a result frame; answered 400: an error frame', async () => {
      const ok = await open(`${base}/ws/acme/prod/answers`);
      ok.ws.send(JSON.stringify({ type: 'ap_request', id: 1, body: { n: 1 } }));
      expect(await ok.next()).toMatchObject({ type: 'ap_result', id: 1, status: 399 });
      const no = await open(`${base}/ws/acme/prod/refuses`);
      no.ws.send(JSON.stringify({ type: 'ap_request', id: 2, body: { n: 1 } }));
      expect(await no.next()).toMatchObject({ type: 'ap_error', id: 2, status: 400 });
      ok.ws.terminate(); no.ws.terminate();
    });

    it('a failed run answered 200 by its response_on_error: an error frame', async () => {
      const c = await open(`${base}/ws/acme/prod/forgives`);
      c.ws.send(JSON.stringify({ type: 'ap_request', id: 3, body: { n: 0 } }));
      expect(await c.next()).toMatchObject({ type: 'ap_error', id: 3, status: 200 });
      c.ws.send(JSON.stringify({ type: 'ap_request', id: 4, body: { n: 5 } }));
      expect(await c.next()).toMatchObject({ type: 'ap_result', id: 4, status: 200 });
      c.ws.terminate();
    });
  });
}
