// compile's server holds the inspector page only with --inspector: without it the bundle has none of
// the page's files (the same size as one built before the page existed but for the route's 404,
// which says how to get it), with it GET /_ap/ui serves them. Real bundles, run as operators run them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFolder, serveBundle } from '../support/bundle.ts';
import { runCli } from '../support/test-cli.ts';

const ADMIN = 'inspector-admin-token-0123';
const CONFIG = 'interfaces:\n  hello:\n    actions:\n      - name: Hi\n        input: hi\n        output: http\n';
const stops: Array<() => unknown> = [];
afterAll(() => { for (const s of stops) s(); });

// One bundle without the page and one with it (bundleFolder): read here, served by the tests below.
describe('compile --inspector', { timeout: 120_000 }, () => {
  it('the page\'s files are in the bundle only with it', async () => {
    const [off, on] = await Promise.all([bundleFolder('plain.yaml', CONFIG), bundleFolder('plain.yaml', CONFIG, { inspector: true })])
      .then((dirs) => dirs.map((d) => readFileSync(join(d, 'server.mjs'), 'utf8')));
    for (const piece of ['<!doctype html>', "const KEY = 'pipewright.admin-token'", ':focus-visible']) {
      expect(off, piece).not.toContain(piece);
      expect(on, piece).toContain(piece);
    }
  });

  it('the command line: --inspector puts the page in server.mjs; with --no-bundle it is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-inspector-cli-'));
    writeFileSync(join(dir, 'hi.yaml'), CONFIG);
    const args = ['compile', join(dir, 'hi.yaml'), '--out', join(dir, 'out')];
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), ...args, '--inspector'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out/hi/server.mjs'), 'utf8')).toContain("const KEY = 'pipewright.admin-token'");
    // The refusal is the command's own check, before any work: in process.
    const refused = await runCli([...args, '--inspector', '--no-bundle']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--inspector puts the page in the server: it cannot go with --no-bundle');
  });

  it('without it: no page, a 404 that names the flag', async () => {
    const base = await serveBundle('plain.yaml', CONFIG, { SERVICE__ADMIN_TOKEN: ADMIN }, stops);
    const res = await fetch(`${base}/_ap/ui`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { status: 404, message: 'the inspector page is not in this server: compile it with --inspector (pipewright serve always has it)' } });
    expect((await fetch(`${base}/_ap/ui/app.js`)).status).toBe(404);
  });

  it('with it: the page and its files, with the CSP', async () => {
    const base = await serveBundle('plain.yaml', CONFIG, { SERVICE__ADMIN_TOKEN: ADMIN }, stops, undefined, { inspector: true });
    const page = await fetch(`${base}/_ap/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('<script type="module" src="/_ap/ui/app.js">');
    const js = await fetch(`${base}/_ap/ui/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toContain("const KEY = 'pipewright.admin-token';");
    // Still off without the admin token.
    const off = await serveBundle('plain.yaml', CONFIG, {}, stops, undefined, { inspector: true });
    expect((await fetch(`${off}/_ap/ui`)).status).toBe(404);
  });
});
