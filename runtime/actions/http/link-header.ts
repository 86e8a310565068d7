// The `rel="next"` target of an RFC 8288 Link header: `<https://api/x?page=2>; rel="next", <…>; rel="last"`.
// rel may be quoted or bare and hold several space-separated relation types.
const LINK = /<([^>]*)>((?:\s*;\s*[^;,]*(?:"[^"]*")?)*)/g;

export function nextFromLinkHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const m of header.matchAll(LINK)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(m[2]);
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (types.includes('next')) return m[1].trim();
  }
  return undefined;
}
