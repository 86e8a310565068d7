// The pagination loop; semantics are documented in pagination.ts.
import { path } from '../../values/get.ts';
import type { ActionOutcome } from '../types.ts';
import type { Exchanged } from './exchange.ts';
import { nextFromLinkHeader } from './link-header.ts';
import type { PaginationPlan } from './pagination.ts';
import { setParam } from './url-query.ts';

type Fetch = (url: URL, page: number) => Promise<Exchanged>;

export async function paginate(p: PaginationPlan, first: URL, fetch: Fetch, maxBytes: number): Promise<ActionOutcome> {
  const items: unknown[] = [];
  let url = p.style === 'page' ? pageUrl(p, first, 1) : withLimit(p, first);
  let cursor: string | undefined; // the cursor sent on the current request
  let total = p.knownPages, maxCursor: string | undefined, bytes = 0;
  for (let n = 1; ; n++) {
    const { out, bytes: size } = await fetch(url, n);
    if (!out.ok) return { ...out, error: `page ${n}: ${out.error}` };
    const fail = (msg: string): ActionOutcome =>
      ({ ...out, ok: false, data: items, error: `page ${n}: ${msg} (${url.origin}${url.pathname})`, failure: { kind: 'other' } });
    if ((bytes += size) > maxBytes) return fail(`the pages exceed the ${maxBytes}-byte response limit together`);
    let next: URL | undefined;
    try {
      const data = out.data;
      const list = payload(p, data);
      for (const x of list) items.push(x); // not push(...list): a huge page would overflow the stack
      const t = p.maxPagesKey && path(data, p.maxPagesKey);
      if (t !== undefined && t !== null && t !== '') total = integer(t, 'max_pages_key');
      if (p.style === 'page') next = list.length ? pageUrl(p, first, n + 1) : undefined;
      else if (p.style === 'cursor') {
        const m = p.cursor.maxKey && path(data, p.cursor.maxKey);
        if (m !== undefined && m !== null) maxCursor = String(m);
        const used = cursor;
        const c = scalar(path(data, p.cursor.nextKey), 'next_cursor_key');
        if (c !== undefined && c !== used && !(used !== undefined && used === maxCursor)) next = cursorUrl(p, first, (cursor = c));
      } else {
        const link = scalar(p.link.key && path(data, p.link.key), 'next_link_key') ?? (p.link.header ? nextFromLinkHeader(out.headers?.link) : undefined);
        next = linkUrl(p, first, url, link);
      }
    } catch (e) {
      return fail((e as Error).message);
    }
    if (!next || (total !== undefined && p.page.skip + n >= total)) return { ...out, data: items };
    if (n >= p.maxPages) {
      if (p.capConfigured) return { ...out, data: items };
      return fail(`more pages remain after ${n} pages (the default max_pages); set pagination.max_pages to fetch more, or to take only the first pages`);
    }
    url = next;
  }
}

function payload(p: PaginationPlan, data: unknown): unknown[] {
  const v = p.payloadKey ? path(data, p.payloadKey) : data;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(p.payloadKey ? `payload_key "${p.payloadKey.join('.')}" is not an array` : 'the response is not an array; set pagination.payload_key to the path of the items');
  return v;
}

/** A cursor or link value: absent, null, '' and false mean "no more pages". */
function scalar(v: unknown, key: string): string | undefined {
  if (v === undefined || v === null || v === '' || v === false) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw new Error(`${key} is not a string or number`);
  return String(v);
}

function integer(v: unknown, key: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${key} is not an integer (${JSON.stringify(v)})`);
  return n;
}

function withLimit(p: PaginationPlan, base: URL): URL {
  const u = new URL(base);
  if (p.limit) setParam(u, p.limit.param, p.limit.value);
  return u;
}

function pageUrl(p: PaginationPlan, first: URL, n: number): URL {
  const u = withLimit(p, n === 1 ? first : p.originalUrl ?? first);
  setParam(u, p.page.param, String(p.page.start + (p.page.skip + n - 1) * p.page.increment));
  return u;
}

function cursorUrl(p: PaginationPlan, first: URL, cursor: string): URL {
  const u = withLimit(p, p.originalUrl ?? first);
  setParam(u, p.cursor.param, cursor);
  return u;
}

function linkUrl(p: PaginationPlan, first: URL, current: URL, link: string | undefined): URL | undefined {
  if (link === undefined) return undefined;
  const host = p.link.host && (/^[a-z][a-z\d+.-]*:\/\//i.test(p.link.host) ? p.link.host : `${first.protocol}//${p.link.host}`);
  let next: URL;
  try {
    if (/^[a-z][a-z\d+.-]*:/i.test(link)) next = new URL(link);
    else next = host ? new URL(`${host.replace(/\/+$/, '')}/${link.replace(/^\/+/, '')}`) : new URL(link, current);
  } catch {
    throw new Error(`next link ${JSON.stringify(link)} is not a valid URL`);
  }
  // Credentials and the idempotency key must not follow a link to another host.
  const allowed = [first.origin, ...(host ? [new URL(host).origin] : [])];
  if (!allowed.includes(next.origin)) throw new Error(`next link leads to another origin (${next.origin}); set pagination.next_link_host to allow it`);
  return next.href === current.href ? undefined : next;
}
