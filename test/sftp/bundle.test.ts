// sftp (and aws) through the fast path, the interpreter and the standalone bundle (run from a folder
// with no node_modules, ssh2 on its pure-JS crypto): byte-identical answers from the same SFTP server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { serveBundle } from '../support/bundle.ts';
import { startSftpServer, type TestSftpServer } from './server.ts';

// The port is written into the config: as a variable its value would be redacted from the bundle's
// error messages (the service redacts every SERVICE__VAR__ value) and not from the in-process ones.
const config = (port: number) => `
interfaces:
  files:
    route: /files/:op
    show_error_detail: true
    actions:
      - name: List
        sftp: { host: 127.0.0.1, port: ${port}, user: deploy, password: a|secret::PASSWORD|, host_key: a|var::HOST_KEY|, operation: list, path: /shared }
      - name: Get
        sftp: { host: 127.0.0.1, port: ${port}, user: deploy, password: a|secret::PASSWORD|, host_key: a|var::HOST_KEY|, operation: get, path: /shared/a.txt }
  denied:
    show_error_detail: true
    actions:
      - name: Wrong
        sftp: { host: 127.0.0.1, port: ${port}, user: deploy, password: wrong-password, host_key: a|var::HOST_KEY|, operation: list, path: / }
  link:
    actions:
      - name: Link
        aws: { credential: S3, get_signed_download_url: { bucket: b-1, key: k } }
`;

let server: TestSftpServer;
const stops: Array<() => unknown> = [];
beforeAll(async () => {
  server = await startSftpServer();
  mkdirSync(join(server.root, 'shared', 'sub'), { recursive: true });
  writeFileSync(join(server.root, 'shared', 'a.txt'), 'alpha ✓');
});
afterAll(async () => { for (const s of stops) await s(); await server.close(); });

describe('sftp through the three paths', () => {
  it('answers byte-identically, failures included, and the bundle signs URLs', async () => {
    const vars = { HOST_KEY: server.fingerprint };
    const secrets = { PASSWORD: server.password, S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE', S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
    const fast = await serveOn([await planOf('sftp-paths.yaml', 'compiled', config(server.port))], testEnv(vars, secrets));
    const slow = await serveOn([await planOf('sftp-paths.yaml', 'interpreted', config(server.port))], testEnv(vars, secrets));
    stops.push(() => fast.app.close(), () => slow.app.close());
    const bundle = await serveBundle('sftp-paths.yaml', config(server.port), {
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [`SERVICE__VAR__${k}`, v])),
      ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [`SERVICE__SECRET__${k}`, v])),
    }, stops);
    for (const path of ['/files/x', '/denied']) {
      const answers = await Promise.all([fast.url, slow.url, bundle].map(async (base) => { const r = await fetch(base + path); return { status: r.status, body: await r.text() }; }));
      expect(answers[1], `${path} interpreted`).toEqual(answers[0]);
      expect(answers[2], `${path} bundle`).toEqual(answers[0]);
    }
    const files = JSON.parse((await (await fetch(`${bundle}/files/x`)).text()));
    expect(files.Get.content).toBe('alpha ✓');
    expect(files.List.map((i: { name: string }) => i.name)).toEqual(['a.txt', 'sub']);
    const link = await (await fetch(`${bundle}/link`)).json() as { Link: { url: string } };
    expect(link.Link.url).toMatch(/^https:\/\/b-1\.s3\.us-east-1\.amazonaws\.com\/k\?X-Amz-Algorithm=AWS4-HMAC-SHA256&.*&X-Amz-Signature=[0-9a-f]{64}$/);
  }, 180_000);
});
