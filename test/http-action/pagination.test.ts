// Pagination by page numbers against a real upstream, plus the bounds, failures and validation.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, createHttpAction, http } from '../../runtime/actions/http.ts';
import { ctx, json, startUpstream } from './helpers.ts';

const q = (req: IncomingMessage) => new URL(req.url!, 'http://x').searchParams;
const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const ids = (data: unknown) => (data as { id: number }[]).map((x) => x.id);

describe('pagination', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({
      // 7 items, page size from ?per_page (default 3), pages numbered from ?page.
      '/pages': (req, res) => {
        const page = Number(q(req).get('page')), size = Number(q(req).get('per_page') ?? 3);
        const all = items(1, 7).slice((page - 1) * size, page * size);
        json(res, 200, { result: { rows: all }, meta: { total_pages: Math.ceil(7 / size) } });
      },
      '/array': (req, res) => json(res, 200, Number(q(req).get('offset')) >= 4 ? [] : items(Number(q(req).get('offset')), 2)),
      '/endless': (req, res) => json(res, 200, [{ id: Number(q(req).get('page')) }]),
      '/flaky': (req, res) => (q(req).get('page') === '2' ? json(res, 503, { error: 'busy' }, { 'x-page': '2' }) : json(res, 200, [{ id: 1 }])),
      '/big': (_q, res) => json(res, 200, [{ pad: 'x'.repeat(400) }]),
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  it('page numbers: page size param, payload_key, stops at the total page count', async () => {
    const out = await http({ url: `${up.url}/pages`, pagination: {
      page_next_key: 'page', page_limit: 3, page_limit_key: 'per_page', payload_key: 'result.rows', max_pages_key: 'meta.total_pages',
    } }, ctx());
    expect(out).toMatchObject({ ok: true, status: 200 });
    expect(ids(out.data)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(up.received.slice(-3).map((r) => r.url)).toEqual(['/pages?per_page=3&page=1', '/pages?per_page=3&page=2', '/pages?per_page=3&page=3']);
  });

  it('page numbers: offset style via page_start/increment, stops on the first empty page', async () => {
    const out = await http({ url: `${up.url}/array?offset=99&x=a%20b`, pagination: { page_next_key: 'offset', page_start: 0, increment: 2 } }, ctx());
    expect(ids(out.data)).toEqual([0, 1, 2, 3]);
    // The configured offset is replaced; other params keep their encoding.
    expect(up.received.slice(-3).map((r) => r.url)).toEqual(['/array?x=a%20b&offset=0', '/array?x=a%20b&offset=2', '/array?x=a%20b&offset=4']);
  });

  it('page_marker skips pages; no_pages is a known page count', async () => {
    const out = await http({ url: `${up.url}/pages`, pagination: { page_next_key: 'page', payload_key: 'result.rows', page_marker: 1, no_pages: 3 } }, ctx());
    expect(ids(out.data)).toEqual([4, 5, 6, 7]);
  });

  it('max_pages is a cap that ends with success', async () => {
    const out = await http({ url: `${up.url}/endless`, pagination: { page_next_key: 'page', max_pages: 4 } }, ctx());
    expect(out.ok).toBe(true);
    expect(ids(out.data)).toEqual([1, 2, 3, 4]);
  });

  it('the default hard cap (100 pages) fails rather than truncating silently', async () => {
    const n = up.received.length;
    const out = await http({ url: `${up.url}/endless`, pagination: { page_next_key: 'page' } }, ctx());
    expect(up.received.length - n).toBe(100);
    expect(out).toMatchObject({ ok: false, failure: { kind: 'other' }, status: 200 });
    expect(out.error).toMatch(/^page 100: more pages remain after 100 pages/);
    expect((out.data as unknown[]).length).toBe(100);
  });

  it('a failing page fails the action with its status and headers', async () => {
    const out = await http({ url: `${up.url}/flaky`, pagination: { page_next_key: 'page' } }, ctx());
    expect(out).toMatchObject({ ok: false, status: 503, failure: { kind: 'status', status: 503 }, data: { error: 'busy' } });
    expect(out.headers?.['x-page']).toBe('2');
    expect(out.error).toMatch(/^page 2: HTTP 503 from GET /);
  });

  it('bounds all pages together by the response byte limit', async () => {
    const small = createHttpAction({ maxResponseBytes: 1000 });
    const out = await small({ url: `${up.url}/big`, pagination: { page_next_key: 'page', max_pages: 5 } }, ctx());
    expect(out.error).toMatch(/^page 3: the pages exceed the 1000-byte response limit together/);
  });

  it('rejects unclear settings before sending', async () => {
    const n = up.received.length;
    const bad = async (pagination: unknown) => (await http({ url: `${up.url}/pages`, pagination }, ctx())).error;
    expect(await bad({})).toMatch(/needs exactly one of/);
    expect(await bad({ page_next_key: 'p', next_cursor_key: 'c' })).toMatch(/needs exactly one of/);
    expect(await bad({ next_cursor_key: 'c', increment: 5 })).toBe('pagination.increment does not apply to cursor pagination');
    expect(await bad({ page_next_key: 'p', max_pages: 0 })).toMatch(/max_pages must be an integer from 1 to 10000/);
    expect(await bad({ page_next_key: 'p', page_limit_key: 'size' })).toBe('pagination.page_limit_key needs page_limit');
    // Defaults exported alongside another style are fine.
    expect(await bad({ next_link: true, payload_key: 'result.rows', page_start: 1, increment: '1', page_marker: 0, no_pages: 0 })).toBeUndefined();
    expect(up.received.length).toBe(n + 1);
  });
});
