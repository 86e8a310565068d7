// Google Cloud Storage V4 signing (GOOG4-RSA-SHA256) with a service account's private key, offline
// with node:crypto: canonical request (path-style /bucket/key, sorted RFC 3986 query, signed headers
// content-type when given and host, UNSIGNED-PAYLOAD), string to sign, RSA-SHA256, hex signature.
// https://cloud.google.com/storage/docs/authentication/signatures
import { createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import { rfc3986, signingStamp } from '../../transforms/util/url-signing.ts';
import { CloudError, type SignedUrlRequest } from './signed-url.ts';
import { TextMemo } from '../../values/text-memo.ts';

export interface GcsKey { clientEmail: string; privateKey: string }

// Service-account keys parsed once per PEM text: signing with the PEM itself parsed it on every
// request (~580 of ~900 µs in process).
const keyObjects = new TextMemo<KeyObject>(16);

export function signGcsUrl(endpoint: string, r: SignedUrlRequest, key: GcsKey): string {
  const url = new URL(endpoint);
  const stamp = signingStamp(r.now);
  const scope = `${stamp.slice(0, 8)}/auto/storage/goog4_request`;
  const headers: Array<[string, string]> = [['host', url.host]];
  if (r.contentType) headers.unshift(['content-type', r.contentType.trim().replace(/\s{2,}/g, ' ')]);
  const signedHeaders = headers.map(([h]) => h).join(';');
  const query: Array<[string, string]> = [
    ['X-Goog-Algorithm', 'GOOG4-RSA-SHA256'],
    ['X-Goog-Credential', `${key.clientEmail}/${scope}`],
    ['X-Goog-Date', stamp],
    ['X-Goog-Expires', String(r.expires)],
    ['X-Goog-SignedHeaders', signedHeaders],
  ];
  const qs = query.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
  const path = `${url.pathname.replace(/\/+$/, '')}/${rfc3986(r.bucket)}/${r.key.split('/').map(rfc3986).join('/')}`;
  const canonical = [r.method, path, qs, headers.map(([h, v]) => `${h}:${v}\n`).join(''), signedHeaders, 'UNSIGNED-PAYLOAD'].join('\n');
  const toSign = ['GOOG4-RSA-SHA256', stamp, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(toSign).sign(keyObjects.get(key.privateKey, () => createPrivateKey(key.privateKey)), 'hex');
  } catch {
    throw new CloudError('google: the service account\'s private_key could not sign (not a PEM RSA private key?)');
  }
  return `${url.protocol}//${url.host}${path}?${qs}&X-Goog-Signature=${signature}`;
}
