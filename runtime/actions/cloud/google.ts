// `google` action: a Google Cloud Storage V4 signed URL for an upload (PUT) or a download (GET),
// signed locally with the service account's key (./gcs-sign.ts). `endpoint` defaults to
// https://storage.googleapis.com (path-style /<bucket>/<key>).
import type { ActionKind } from '../types.ts';
import { googleCredential } from './credentials.ts';
import { endpointOf } from './endpoint.ts';
import { signGcsUrl } from './gcs-sign.ts';
import { cloudFailure, signedUrlData, signedUrlRequest } from './signed-url.ts';

export const google: ActionKind = async (config, ctx) => {
  try {
    const c = (config ?? {}) as Record<string, unknown>;
    const r = signedUrlRequest(c, 'google');
    const key = googleCredential(ctx.scope.env, String(c.credential ?? ''));
    return { ok: true, data: signedUrlData(signGcsUrl(endpointOf(c.endpoint, 'https://storage.googleapis.com', 'google'), r, key), r) };
  } catch (e) {
    return cloudFailure(e);
  }
};
