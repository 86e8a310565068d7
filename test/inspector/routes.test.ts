// GET /_ap/ui over HTTP: there only with SERVICE__ADMIN_TOKEN, the same bytes to every caller (no data,
// nothing of the request in it), every file with the Content-Security-Policy and the other headers
// that keep it from being framed or sniffed; the page's own code writes what it shows as text only.
// The browser test (page.browser.test.ts) drives it; compile's bundles: bundle.test.ts.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../runtime/server/app.ts';
import { INSPECTOR_CSP } from '../../runtime/server/inspector/routes.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf, testEnv } from '../support/plans.ts';

const ADMIN = 'inspector-admin-token-0123';
const CONFIG = 'interfaces:\n  hello:\n    actions:\n      - name: Hi\n        input: hi\n        output: http\n';
const FILES = { '/_ap/ui': ['index.html', 'text/html; charset=utf-8'], '/_ap/ui/app.js': ['app.js', 'text/javascript; charset=utf-8'], '/_ap/ui/app.css': ['app.css', 'text/css; charset=utf-8'] } as const;
const source = (name: string) => readFileSync(new URL(`../../runtime/server/inspector/${name}`, import.meta.url), 'utf8');

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of closers) await c(); });

async function serve(adminToken?: string) {
  const app = buildApp([await planOf('ui.yaml', 'compiled', CONFIG)], { env: testEnv(), services: { clock: systemClock, store: new MemoryStore() }, warn: () => {}, ...(adminToken ? { adminToken } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

describe('the inspector page over HTTP', () => {
  it('is not there without SERVICE__ADMIN_TOKEN (404 like any unknown path)', async () => {
    const base = await serve();
    for (const path of Object.keys(FILES)) expect((await fetch(base + path)).status, path).toBe(404);
  });

  it('serves its three files as they are, with the CSP, nosniff, no framing, no caching; the same bytes whatever the request says', async () => {
    const base = await serve(ADMIN);
    for (const [path, [file, type]] of Object.entries(FILES)) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe(source(file));
      expect(Object.fromEntries([...res.headers].filter(([k]) => k !== 'date' && k !== 'connection' && k !== 'keep-alive' && k !== 'content-length' && k !== 'x-run-id')), path).toEqual({
        'content-type': type, 'content-security-policy': INSPECTOR_CSP, 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-resource-policy': 'same-origin', 'cache-control': 'no-store',
      });
    }
    expect(INSPECTOR_CSP).toBe("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
    // Nothing of the request reaches the page: a hostile query, header or admin token changes no byte.
    const hostile = await fetch(`${base}/_ap/ui?q=%3Cscript%3Ealert(1)%3C/script%3E`, { headers: { authorization: `Bearer ${ADMIN}`, 'x-forwarded-host': '<script>', cookie: 'a=<b>' } });
    expect(await hostile.text()).toBe(source('index.html'));
  });

  it('has no inline script or style, and its code never parses data as HTML', () => {
    const html = source('index.html');
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual(['<script type="module" src="/_ap/ui/app.js">']);
    expect(html).not.toMatch(/<script[^>]*>[^<]|<style|\sstyle=|\son[a-z]+=|javascript:/i);
    const js = source('app.js');
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\(\s*['"]on|\.src\s*=|srcdoc/);
    // Attributes set from data: only href, as an encoded #fragment.
    const hrefs = [...js.matchAll(/href: `([^`]*)`/g)].map((m) => m[1]);
    expect(hrefs).toHaveLength(2); // a run's row, a re-run's notice
    for (const h of hrefs) expect(h).toMatch(/^#run\/\$\{encodeURIComponent\(/);
    // Every runs API call for one run goes through runPath, which refuses dot segments.
    expect(js.match(/`\/_ap\/runs\/\$\{/g)).toHaveLength(1);
  });
});
