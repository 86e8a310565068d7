// What AWS SigV4 presigning (./s3-presign.ts) and Google's V4 signing (runtime/actions/cloud/gcs-sign.ts)
// share: the endpoint rule, the 7-day expiry limit both schemes set, the compact UTC timestamp and
// RFC 3986 percent-encoding.
import { TransformError } from '../types.ts';

/** The longest a signed URL may live, in seconds: SigV4's and V4's limit (7 days). */
export const MAX_SIGNED_EXPIRES_S = 7 * 86400;

export const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signing time as both schemes print it: `20130524T000000Z` (whole seconds, UTC). */
export const signingStamp = (nowMs: number): string => new Date(Math.floor(nowMs / 1000) * 1000).toISOString().replace(/[:-]|\.\d{3}/g, '');

/** A storage endpoint: an http(s) origin, optionally with a base path, and nothing else. `who`
 *  prefixes the message (the transform's or the action's name). */
export function signingEndpoint(text: string, who: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TransformError(`${who}: \`endpoint\` is not a URL`);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new TransformError(`${who}: \`endpoint\` must be an http(s) URL without credentials, query or fragment`);
  return url;
}
