// StatusExpectation matching (spec: HttpRequest). Reused by retry `on`/`except` and asserts.
export type StatusMatcher = number | string;
export type StatusExpectation = StatusMatcher | StatusMatcher[] | null | undefined;

/** Unset → 2xx or 304; number or numeric string → exact; `2xx`… → class; `any` → all; list → any entry. Unknown strings never match. */
export function statusMatches(expect: StatusExpectation, status: number): boolean {
  if (expect === undefined || expect === null) return (status >= 200 && status < 300) || status === 304;
  if (Array.isArray(expect)) return expect.some((m) => matchOne(m, status));
  return matchOne(expect, status);
}

function matchOne(m: StatusMatcher, status: number): boolean {
  if (typeof m === 'number') return m === status;
  if (typeof m !== 'string') return false;
  const s = m.trim().toLowerCase();
  if (s === 'any') return true;
  if (/^\d{3}$/.test(s)) return Number(s) === status;
  const cls = /^([1-5])xx$/.exec(s);
  return cls !== null && Math.floor(status / 100) === Number(cls[1]);
}

/** Human text for error messages: `2xx or 304`, `200, 404 or 5xx`. */
export function describeExpectation(expect: StatusExpectation): string {
  if (expect === undefined || expect === null) return '2xx or 304';
  const items = (Array.isArray(expect) ? expect : [expect]).map(String);
  if (items.length === 0) return 'nothing (empty expect_status)';
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
