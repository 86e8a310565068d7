// Issue 31 §2: the inspector page in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core), against a server on a real Postgres store with runs of every kind: 250 failed
// ones to page through, three that waited and succeeded, one waiting for a callback, and one whose
// request and upstream answer carry markup (`<img onerror>`, `</script>`) that must show as text and
// never run, and two whose action was refused in its settings or could not connect. Sign in, page,
// filter, open the failed run by keyboard and read its failing action and reason, cancel the waiting
// run and re-run it, read how the other two failed (a refusal's status, a transport class).
// Screenshots are kept in .tmp/artifacts/ (inspector.png: the failed run; inspector-list.png: the
// waiting run in the list).
// Skips, saying why, only when no Chromium is installed (.ci/run installs it).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock } from '../../runtime/services.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from '../durable/helpers.ts';

const CHROMIUM = process.env.PIPEWRIGHT_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const ADMIN = 'inspector-admin-token-0123';
const HOSTILE = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';
const BULK = 250;
const schema = schemaName('inspector');

const CONFIG = `
interfaces:
  sync:
    method: POST
    actions:
      - name: Up
        url: a|var::API|/boom
        output: http
  charge:
    method: POST
    actions:
      - name: Prepare
        input: { note: a|body::note| }
      - name: Charge
        url: a|var::API|/boom
        output: http
  approval:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Ask
        http:
          url: a|var::API|/register
          method: POST
          body: { token: a|Token|, id: a|body::id| }
      - name: Approval
        wait_for_callback:
          token: a|Token|
          timeout: 1h
      - name: Done
        input: { approved: a|Approval::approved| }
        output: http
  item:
    method: POST
    actions:
      - name: Item
        url: a|var::API|/items/a|body::sku|
        output: http
  gone:
    method: POST
    actions:
      - name: Gone
        url: a|var::DEAD|/ping
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
let store: PostgresStore;
let base = '';
let browser: Browser | undefined;
let context: BrowserContext | undefined;
const stops: Array<() => Promise<unknown>> = [];

async function api(path: string, method = 'GET', body?: unknown) {
  const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${ADMIN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: await res.json() as Record<string, any>, runId: res.headers.get('x-run-id') };
}

describe.skipIf(!haveChromium)(haveChromium ? 'the inspector page in headless Chromium' : `the inspector page: SKIPPED, no Chromium at ${CHROMIUM} (apt-get install chromium, or set PIPEWRIGHT_CHROMIUM)`, () => {
  let failedId = '';
  let waitingId = '';
  let refusedId = '';
  let goneId = '';
  beforeAll(async () => {
    up = await countingUpstream({ '/boom': (_q, res) => json(res, 500, { reason: HOSTILE }), '/register': (_q, res) => json(res, 200, { ok: true }) });
    const tokenOf = (id: number) => JSON.parse(up.hits.filter((h) => h.path === '/register' && JSON.parse(h.body).id === id).at(-1)!.body).token as string;
    store = new PostgresStore({ url: DATABASE_URL, schema });
    await store.init();
    const plans = [await planOf('inspector.yaml', 'compiled', CONFIG)];
    // A loopback port nothing listens on (one just closed): a connect there is refused.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const app = buildApp(plans, { env: processEnvironment({ SERVICE__VAR__API: up.url, SERVICE__VAR__DEAD: dead }), services: { clock: systemClock, store }, adminToken: ADMIN, warn: () => {} });
    await app.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => app.close(), () => store.close());
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const post = (path: string, body: unknown) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => { await r.arrayBuffer(); return r; });
    // First (oldest) a run refused in its settings and one that could not connect; then 250 failed
    // runs, ten at a time, then three that wait and succeed, one left waiting, and last (newest) the
    // failed run whose values are markup.
    const refusedRun = await post('/item', { sku: '..' });
    expect(refusedRun.status).toBe(400);
    refusedId = refusedRun.headers.get('x-run-id')!;
    const goneRun = await post('/gone', {});
    expect(goneRun.status).toBe(502);
    goneId = goneRun.headers.get('x-run-id')!;
    for (let i = 0; i < BULK; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => post('/sync', { n: i + j })));
    for (const n of [1, 2, 3]) {
      const r = await post('/approval', { id: n });
      expect(r.status).toBe(202);
      expect((await post(`/_ap/resume/${tokenOf(n)}`, { approved: true })).status).toBe(202);
      const id = r.headers.get('x-run-id')!;
      await until(async () => (await api(`/_ap/runs/${id}`)).body.status === 'succeeded' || undefined);
    }
    const w = await post('/approval', { id: 4 });
    waitingId = w.headers.get('x-run-id')!;
    const f = await post('/charge', { note: HOSTILE });
    expect(f.status).toBe(502);
    failedId = f.headers.get('x-run-id')!;

    const { chromium } = await import('playwright-core');
    const profile = mkdtempSync(join(tmpdir(), 'pw-chromium-'));
    stops.push(async () => rmSync(profile, { recursive: true, force: true }));
    // Without the background-networking switches Chromium dials out at start (refused on a closed network).
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    browser = context.browser() ?? undefined;
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    for (const s of stops.reverse()) await s();
    await dropSchema(schema);
    await up?.close();
    await closeHttpPools();
  });

  it('signs in, pages through 257 runs, opens the failed one by keyboard, cancels the waiting one, re-runs it, shows how an action failed', async () => {
    const page: Page = await context!.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // Script errors and CSP refusals; the wrong token's 401 (below) is the one error the page expects.
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('status of 401')) pageErrors.push(m.text()); });

    const res = await page.goto(`${base}/_ap/ui`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");

    // A wrong token: told so, still on the sign-in form.
    await page.getByLabel('Admin token').fill('not-the-admin-token');
    await page.getByLabel('Admin token').press('Enter');
    await expect.poll(() => page.locator('#notice').textContent()).toContain('was not accepted');
    await page.getByLabel('Admin token').fill(ADMIN);
    await page.getByRole('button', { name: 'Open' }).click();

    // Pages of 50, newest first: every run once. The sign-in form is gone.
    const rows = page.locator('#rows tr');
    await expect.poll(() => rows.count()).toBe(50);
    expect(await page.locator('#login').isVisible()).toBe(false);
    const seen = new Set<string>();
    for (;;) {
      for (const t of await page.locator('#rows tr td:first-child a').evaluateAll((as) => as.map((a) => a.getAttribute('title')))) seen.add(t!);
      if (await page.getByRole('button', { name: 'Older runs' }).isDisabled()) break;
      const first = await page.locator('#rows tr td:first-child a').first().getAttribute('title');
      await page.getByRole('button', { name: 'Older runs' }).click();
      await expect.poll(() => page.locator('#rows tr td:first-child a').first().getAttribute('title')).not.toBe(first);
    }
    expect(seen.size).toBe(BULK + 7);
    await page.getByRole('button', { name: 'Newest' }).click();
    await expect.poll(() => page.locator('#rows tr td:first-child a').first().getAttribute('title')).toBe(failedId);

    // Filter: failed runs of `charge`; the markup in its values is text.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByLabel('Per page').selectOption('20');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('#caption').textContent()).toBe('20 runs, newest first');
    await page.getByLabel('Interface').fill('charge');
    await page.getByLabel('Interface').press('Enter');
    await expect.poll(() => page.url()).toContain('status=failed');
    // The interface's list rendered (its one run) before the keyboard step: a render after the Tab
    // replaces the focused link, and Enter then opens nothing.
    await expect.poll(() => page.locator('#caption').textContent()).toBe('1 run, newest first');
    // Keyboard only: from the Filter button, Tab reaches the newest run's link; Enter opens it.
    await page.getByRole('button', { name: 'Filter' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.getAttribute("title")')).toBe(failedId);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#run-title').textContent()).toBe('inspector.charge: failed');

    // The failing action, its HTTP status and reason; the hostile values shown literally.
    const failing = page.locator('li.action.failed');
    await expect.poll(() => failing.locator('.name').textContent()).toBe('Charge');
    expect(await failing.locator('h4').textContent()).toContain('HTTP 500');
    expect(await failing.locator('.error-text').textContent()).toMatch(/^Error: .*500/);
    await failing.getByText('Data').click();
    expect(await failing.locator('pre').first().textContent()).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    expect(await page.locator('#request').textContent()).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('body script').count()).toBe(0);
    mkdirSync('.tmp/artifacts', { recursive: true });
    await page.screenshot({ path: '.tmp/artifacts/inspector.png', fullPage: true });

    // Back to the filtered list, then the waiting run: its callback's timeout, cancel (confirmed).
    await page.getByRole('link', { name: 'Back to the runs' }).click();
    await expect.poll(() => page.locator('#caption').textContent()).toBe('1 run, newest first');
    await page.getByLabel('Status').selectOption('suspended');
    await page.getByLabel('Interface').fill('approval');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('#rows tr td:first-child a').evaluateAll((as) => as.map((a) => a.getAttribute('title')))).toEqual([waitingId]);
    expect(await page.locator('#rows tr td').last().textContent()).toMatch(/^callback in Approval, times out /);
    await page.screenshot({ path: '.tmp/artifacts/inspector-list.png', fullPage: true });
    await page.locator('#rows tr td:first-child a').click();
    await expect.poll(() => page.locator('#run-title').textContent()).toBe('inspector.approval: suspended');
    await page.getByRole('button', { name: 'Cancel this run…' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect.poll(() => page.locator('#run-title').textContent()).toBe('inspector.approval: cancelled');
    expect((await api(`/_ap/runs/${waitingId}`)).body.status).toBe('cancelled');
    expect(await page.locator('li.action.failed .error-text').textContent()).toBe('Error: cancelled while waiting');

    // Re-run it: a new run, which waits again.
    await page.getByRole('button', { name: 'Re-run' }).click();
    await expect.poll(() => page.locator('#notice').textContent()).toMatch(/^Re-ran as run \S+: suspended \(HTTP 202\)/);
    const newId = await page.locator('#notice a').textContent();
    expect(newId).not.toBe(waitingId);
    expect((await api(`/_ap/runs/${newId}`)).body).toMatchObject({ status: 'suspended', interface: 'approval' });

    // How a failed action failed, as the runs API says: a refusal's status (made in its settings,
    // nothing sent), a transport failure's class.
    await page.evaluate(`location.hash = ${JSON.stringify(`#run/${refusedId}`)}`);
    await expect.poll(() => page.locator('#run-title').textContent()).toBe('inspector.item: failed');
    expect(await page.locator('li.action.failed .failure-kind').textContent()).toBe('Failed as: refused with 400, while its settings were filled in (before it ran: nothing was sent)');
    await page.evaluate(`location.hash = ${JSON.stringify(`#run/${goneId}`)}`);
    await expect.poll(() => page.locator('#run-title').textContent()).toBe('inspector.gone: failed');
    expect(await page.locator('li.action.failed .failure-kind').textContent()).toBe('Failed as: a transport failure (connect: it never reached the server)');

    // A link naming `..` (or `%2e%2e`) as its run: refused in the page, no call leaves /_ap/runs/.
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    for (const hash of ['#run/..', '#run/%2e%2e', '#run/.']) {
      await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
      await expect.poll(() => page.locator('#notice').textContent()).toBe('Error: That link does not name a run.');
      expect(await page.locator('#run-title').textContent(), hash).toBe('Run not shown');
    }
    expect(calls).toEqual([]);

    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
