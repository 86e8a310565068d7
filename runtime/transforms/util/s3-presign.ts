// SigV4 query presigning of one S3 object URL (aws4, UNSIGNED-PAYLOAD), shared by the
// s3_generate_presigned_url transform and the aws action. `endpoint` is the S3 service URL
// (https://s3.eu-west-1.amazonaws.com, MinIO, R2...) giving path-style /bucket/key, or the bucket's
// own URL (host starting "<bucket>.") giving virtual-hosted /key. The key is percent-encoded per
// segment ("/" kept). A content type is signed (SignedHeaders content-type;host): the upload must
// send exactly that header. Messages name fields, never credentials.
import aws4 from 'aws4';
import { rfc3986, signingEndpoint, signingStamp } from './url-signing.ts';

export interface S3Presign {
  endpoint: string;
  bucket: string;
  key: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Seconds, 1 to MAX_SIGNED_EXPIRES_S (./url-signing.ts): the callers' field checks hold it there. */
  expires: number;
  method: 'GET' | 'PUT';
  contentType?: string;
  /** Signing time, epoch ms. */
  now: number;
}

/** `who` prefixes messages (the transform's or the action's name). */
export function presignS3(p: S3Presign, who: string): string {
  const url = signingEndpoint(p.endpoint, who);
  const virtual = url.hostname.startsWith(`${p.bucket.toLowerCase()}.`);
  const base = url.pathname.replace(/\/+$/, '');
  const path = `${base}${virtual ? '' : `/${rfc3986(p.bucket)}`}/${p.key.split('/').map(rfc3986).join('/')}`;
  const amzDate = signingStamp(p.now);
  const signed = aws4.sign(
    {
      host: url.host, path: `${path}?X-Amz-Expires=${p.expires}&X-Amz-Date=${amzDate}`, method: p.method, service: 's3', region: p.region, signQuery: true,
      ...(p.contentType ? { headers: { 'Content-Type': p.contentType } } : {}),
    },
    { accessKeyId: p.accessKeyId, secretAccessKey: p.secretAccessKey, ...(p.sessionToken ? { sessionToken: p.sessionToken } : {}) },
  );
  // The query in canonical order with the signature last, as AWS's documented example prints it.
  const [signedPath, query = ''] = signed.path!.split('?');
  const pairs = query.split('&').filter(Boolean);
  const sig = pairs.filter((x) => x.startsWith('X-Amz-Signature='));
  const rest = pairs.filter((x) => !x.startsWith('X-Amz-Signature=')).sort((a, b) => (a.split('=')[0]! < b.split('=')[0]! ? -1 : 1));
  return `${url.protocol}//${url.host}${signedPath}?${[...rest, ...sig].join('&')}`;
}
