// The operation block shared by aws and google: get_signed_upload_url (PUT) or
// get_signed_download_url (GET) with bucket, key, expires (a duration, 1 s to 7 days, default 15
// minutes) and content_type (upload only: signed, so the upload must send that Content-Type).
// The action's data: { url, method, headers, expires_at }.
import { optionalDurationMs } from '../../values/duration.ts';
import { nowMs } from '../../transforms/util/clock.ts';
import { MAX_SIGNED_EXPIRES_S } from '../../transforms/util/url-signing.ts';

export interface SignedUrlRequest {
  method: 'GET' | 'PUT';
  bucket: string;
  key: string;
  /** Whole seconds. */
  expires: number;
  contentType?: string;
  /** Signing time, epoch ms (the transforms' clock: tests freeze it). */
  now: number;
}

export class CloudError extends Error {}

const DEFAULT_EXPIRES_S = 900;

export function signedUrlRequest(block: Record<string, unknown>, who: string): SignedUrlRequest {
  const up = block.get_signed_upload_url, down = block.get_signed_download_url;
  if ((up === undefined) === (down === undefined)) throw new CloudError(`${who}: set exactly one of get_signed_upload_url, get_signed_download_url`);
  const op = (up ?? down) as Record<string, unknown>;
  const name = up !== undefined ? 'get_signed_upload_url' : 'get_signed_download_url';
  if (typeof op !== 'object' || op === null) throw new CloudError(`${who}: ${name} must be an object with bucket and key`);
  const str = (f: string) => {
    const v = op[f];
    if (typeof v !== 'string' || !v) throw new CloudError(`${who}: ${name}.${f} must be non-empty text`);
    return v;
  };
  let ms: number | undefined;
  try { ms = optionalDurationMs(op.expires); } catch (e) { throw new CloudError(`${who}: ${name}.expires: ${(e as Error).message}`); }
  const expires = ms === undefined ? DEFAULT_EXPIRES_S : Math.round(ms / 1000);
  if (expires < 1 || expires > MAX_SIGNED_EXPIRES_S) throw new CloudError(`${who}: ${name}.expires must be from 1s to 7d`);
  const r: SignedUrlRequest = { method: up !== undefined ? 'PUT' : 'GET', bucket: str('bucket'), key: str('key'), expires, now: nowMs() };
  if (op.content_type !== undefined && op.content_type !== null && op.content_type !== '') {
    if (up === undefined) throw new CloudError(`${who}: content_type is for get_signed_upload_url (a download sends no body)`);
    r.contentType = str('content_type');
  }
  return r;
}

/** What the action returns for a signed URL. */
export const signedUrlData = (url: string, r: SignedUrlRequest) => ({
  url,
  method: r.method,
  headers: r.contentType ? { 'Content-Type': r.contentType } : {},
  expires_at: new Date(Math.floor(r.now / 1000) * 1000 + r.expires * 1000).toISOString(),
});

/** Signing fails only on configuration (credential, fields): an ordinary failure (500), retried like every non-HTTP action's. */
export const cloudFailure = (e: unknown) => ({ ok: false, error: e instanceof Error ? e.message : String(e), failure: { kind: 'other' as const } });
