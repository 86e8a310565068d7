// An integration's optional `endpoint` (S3-compatible stores, a GCS emulator): an http(s) origin,
// optionally with a base path, and nothing else.
import { CloudError } from './signed-url.ts';

export function endpointOf(v: unknown, dflt: string, who: string): string {
  if (v === undefined || v === null || v === '') return dflt;
  let url: URL;
  try { url = new URL(String(v)); } catch { throw new CloudError(`${who}: endpoint is not a URL`); }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new CloudError(`${who}: endpoint must be an http(s) URL without credentials, query or fragment`);
  return url.href;
}
