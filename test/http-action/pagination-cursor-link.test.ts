// Pagination by cursors and by next links (body path or Link header) against a real upstream.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { ctx, json, startUpstream } from './helpers.ts';

const q = (req: IncomingMessage) => new URL(req.url!, 'http://x').searchParams;
const ids = (data: unknown) => (data as { id: number }[]).map((x) => x.id);

describe('pagination: cursors and links', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({
      '/cursor': (req, res) => {
        const c = q(req).get('after') ?? 'a';
        const next: Record<string, string | null> = { a: 'b', b: 'c', c: null };
        json(res, 200, { items: [{ id: c }], paging: { next: next[c] } });
      },
      '/scan': (req, res) => { // empty pages with a cursor, max cursor announced
        const c = Number(q(req).get('cursor') ?? 0);
        json(res, 200, { items: c === 1 ? [] : [{ id: c }], next: c + 1, last: 3 });
      },
      '/links': (req, res) => {
        const p = Number(q(req).get('p') ?? 1);
        json(res, 200, { data: [{ id: p }], links: { next: p < 3 ? `/links?p=${p + 1}` : null } });
      },
      '/gh': (req, res) => {
        const p = Number(q(req).get('page') ?? 1);
        const link = p < 3 ? `<${up.url}/gh?page=${p + 1}>; rel="next", <${up.url}/gh?page=3>; rel="last"` : `<${up.url}/gh?page=1>; rel="first"`;
        json(res, 200, [{ id: p }], { link });
      },
      // Elasticsearch-style scroll: the first search and its continuation are different endpoints.
      '/search': (_q, res) => json(res, 200, { hits: [{ id: 1 }], scroll_id: 's1' }),
      '/scroll': (req, res) => json(res, 200, q(req).get('scroll_id') === 's1' ? { hits: [{ id: 2 }], scroll_id: 's2' } : { hits: [], scroll_id: null }),
      '/away': (_q, res) => json(res, 200, { data: [1], next: 'http://example.invalid/steal' }),
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  it('cursors: sent as cursor_marker, stops when the next cursor is null', async () => {
    const out = await http({ url: `${up.url}/cursor`, pagination: { next_cursor_key: 'paging.next', cursor_marker: 'after', payload_key: 'items' } }, ctx());
    expect(out.data).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    expect(up.received.slice(-3).map((r) => r.url)).toEqual(['/cursor', '/cursor?after=b', '/cursor?after=c']);
  });

  it('cursors: empty pages continue; stops after fetching the max cursor', async () => {
    const out = await http({ url: `${up.url}/scan`, pagination: { next_cursor_key: 'next', max_cursor_key: 'last', payload_key: 'items' } }, ctx());
    expect(ids(out.data)).toEqual([0, 2, 3]);
    expect(up.last().url).toBe('/scan?cursor=3');
  });

  it('original_url: continuation endpoint for cursor requests', async () => {
    const out = await http({ url: `${up.url}/search`, pagination: {
      next_cursor_key: 'scroll_id', cursor_marker: 'scroll_id', payload_key: 'hits', original_url: `${up.url}/scroll`,
    } }, ctx());
    expect(ids(out.data)).toEqual([1, 2]);
    expect(up.received.slice(-3).map((r) => r.url)).toEqual(['/search', '/scroll?scroll_id=s1', '/scroll?scroll_id=s2']);
  });

  it('next links from the body, relative ones resolved against the page', async () => {
    const out = await http({ url: `${up.url}/links`, pagination: { next_link_key: 'links.next', payload_key: 'data' } }, ctx());
    expect(ids(out.data)).toEqual([1, 2, 3]);
    const prefixed = await http({ url: `${up.url}/links`, pagination: { next_link_key: 'links.next', payload_key: 'data', next_link_host: up.url } }, ctx());
    expect(ids(prefixed.data)).toEqual([1, 2, 3]);
  });

  it('next links from the Link header with next_link: true', async () => {
    const out = await http({ url: `${up.url}/gh`, pagination: { next_link: true } }, ctx());
    expect(ids(out.data)).toEqual([1, 2, 3]);
    expect(out.headers?.link).toContain('rel="first"'); // the last page's headers
  });

  it('refuses a next link to another origin', async () => {
    const out = await http({ url: `${up.url}/away`, headers: { authorization: 'Bearer s3cret' }, pagination: { next_link_key: 'next', payload_key: 'data' } }, ctx());
    expect(out).toMatchObject({ ok: false, failure: { kind: 'other' } });
    expect(out.error).toMatch(/page 1: next link leads to another origin \(http:\/\/example\.invalid\)/);
  });

  it('sends a distinct, stable idempotency key per page', async () => {
    await http({ url: `${up.url}/links`, idempotency: {}, pagination: { next_link_key: 'links.next', payload_key: 'data' } }, ctx({ executionId: 'x1' }));
    expect(up.received.slice(-3).map((r) => r.headers['idempotency-key'])).toEqual(['x1', 'x1-2', 'x1-3']);
  });
});
