/**
 * Pagination (HttpRequest `pagination`). The spec names the fields only; these are our semantics.
 *
 * Style — exactly one, chosen by which key is set:
 * - page numbers, `page_next_key`: the query parameter carrying the page number. Request n (1-based)
 *   asks for page `page_start + (page_marker + n - 1) * increment`; `page_start` default 1,
 *   `increment` default 1 (set it to the page size, with page_start 0, for offset APIs);
 *   `page_marker` (default 0) skips that many pages, to resume from a known position.
 *   Stops at the first empty page.
 * - cursors, `next_cursor_key`: the response path of the next cursor, sent on the next request as
 *   query parameter `cursor_marker` (default `cursor`). Stops when the cursor is absent, null, '' or
 *   false, when it repeats the cursor just used, or once the page requested with the cursor found at
 *   `max_cursor_key` (a response path: the last cursor there is) has been fetched. Empty pages do not
 *   stop it (scan-style APIs return empty pages with a cursor).
 * - next links, `next_link_key` (response path of the next URL) and/or `next_link: true` (the
 *   `Link: <…>; rel="next"` response header, RFC 8288; used when the body has no link). Relative
 *   links are appended to `next_link_host` when set, else resolved against the page's URL. A link
 *   to an origin other than `url`'s or next_link_host's fails the action: credentials and the
 *   idempotency key must not follow a link to another host. Stops when there is no link or it repeats.
 * Common fields:
 * - `payload_key`: response path of the items array (dotted, `data.items`; array indexes allowed).
 *   Unset: the body itself must be an array. An absent or null payload, or an empty body, is an
 *   empty page. The action's data is every page's items concatenated, in order; status and headers
 *   are the last page's.
 * - `page_limit` + `page_limit_key` (default `limit`): page-size query parameter, sent on every page
 *   and cursor request and on the first next-link request (later links carry their own).
 * - `original_url`: page and cursor styles: the URL for requests after the first (for APIs whose
 *   continuation endpoint differs, e.g. Elasticsearch `/_search/scroll`); default `url`.
 * - `max_pages_key`: response path of the total page count; `no_pages` (default 0 = unknown): the
 *   same known up front. Reaching the total is the normal end.
 * - `max_pages`: an explicit cap; reaching it ends with success (the caller asked for at most N).
 *   Unset, a hard cap of 100 pages still applies, and reaching it with pages left FAILS the action:
 *   we never silently return a truncated list. max_pages is refused above 10000.
 * Safety bounds: all pages together are held to the action's response-byte limit (32 MiB by default,
 *   the same as one response: the data becomes one value in the run state); exceeding it fails.
 * Failures: any page's failure (status outside expect_status, transport, decoding) fails the action
 *   with that page's status and headers and an error prefixed `page N:`; a retry starts over at page 1.
 * Requests: each page is a full request (method, body, headers, auth, Digest). `timeout` applies per
 *   request; the action timeout bounds the whole loop. Page params replace same-named params in the
 *   URL; the idempotency key is `<key>` on page 1 and `<key>-<n>` on page n.
 * Fields of another style set to a non-default value are refused (no silent no-ops).
 */
import { num, optionalNum, pathOf, str } from './pagination-fields.ts';

export const DEFAULT_MAX_PAGES = 100;
export const MAX_PAGES_CEILING = 10_000;

export type Style = 'page' | 'cursor' | 'link';

export interface PaginationPlan {
  style: Style;
  maxPages: number;
  /** max_pages was configured: reaching it is a success. */
  capConfigured: boolean;
  knownPages?: number;
  payloadKey?: string[];
  maxPagesKey?: string[];
  limit?: { param: string; value: string };
  originalUrl?: URL;
  page: { param: string; start: number; increment: number; skip: number };
  cursor: { param: string; nextKey: string[]; maxKey?: string[] };
  link: { key?: string[]; header: boolean; host?: string };
}

// A field of one style given a non-default value under another.
const ONLY: Record<string, { styles: Style[]; dflt?: number }> = {
  page_start: { styles: ['page'], dflt: 1 }, increment: { styles: ['page'], dflt: 1 }, page_marker: { styles: ['page'], dflt: 0 },
  cursor_marker: { styles: ['cursor'] }, max_cursor_key: { styles: ['cursor'] },
  next_link_host: { styles: ['link'] }, original_url: { styles: ['page', 'cursor'] },
};

export function parsePagination(raw: unknown): PaginationPlan {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('http.pagination must be a mapping');
  const p = raw as Record<string, unknown>;
  const linkHeader = p.next_link === true || p.next_link === 'true';
  if (p.next_link != null && !linkHeader && p.next_link !== false && p.next_link !== 'false') throw new Error('pagination.next_link must be a boolean');
  const styles = ([['page', p.page_next_key != null], ['cursor', p.next_cursor_key != null], ['link', p.next_link_key != null || linkHeader]] as const)
    .filter(([, on]) => on).map(([s]) => s as Style);
  if (styles.length !== 1) throw new Error('pagination needs exactly one of page_next_key, next_cursor_key, or next_link_key / next_link: true');
  const style = styles[0];
  for (const [k, o] of Object.entries(ONLY)) {
    if (p[k] != null && !o.styles.includes(style) && (o.dflt === undefined || Number(p[k]) !== o.dflt)) throw new Error(`pagination.${k} does not apply to ${style} pagination`);
  }
  const maxPages = optionalNum(p, 'max_pages', 1, MAX_PAGES_CEILING);
  const limit = optionalNum(p, 'page_limit', 1);
  if (p.page_limit_key != null && limit === undefined) throw new Error('pagination.page_limit_key needs page_limit');
  const originalUrl = p.original_url == null ? undefined : new URL(str(p, 'original_url'));
  if (originalUrl && !/^https?:$/.test(originalUrl.protocol)) throw new Error('pagination.original_url must be an http(s) URL');
  return {
    style, maxPages: maxPages ?? DEFAULT_MAX_PAGES, capConfigured: maxPages !== undefined,
    knownPages: num(p, 'no_pages', 0, 0) || undefined,
    payloadKey: pathOf(p, 'payload_key'), maxPagesKey: pathOf(p, 'max_pages_key'),
    limit: limit === undefined ? undefined : { param: p.page_limit_key == null ? 'limit' : str(p, 'page_limit_key'), value: String(limit) },
    originalUrl,
    page: { param: style === 'page' ? str(p, 'page_next_key') : '', start: num(p, 'page_start', 1, 0), increment: num(p, 'increment', 1, 1), skip: num(p, 'page_marker', 0, 0) },
    cursor: { param: p.cursor_marker == null ? 'cursor' : str(p, 'cursor_marker'), nextKey: pathOf(p, 'next_cursor_key') ?? [], maxKey: pathOf(p, 'max_cursor_key') },
    link: { key: pathOf(p, 'next_link_key'), header: linkHeader, host: p.next_link_host == null ? undefined : str(p, 'next_link_host') },
  };
}
