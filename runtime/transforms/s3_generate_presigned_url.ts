// s3_generate_presigned_url -> a SigV4 query-presigned URL (aws4, UNSIGNED-PAYLOAD) under `key`.
// operation get (default: download) or put (upload); expiration_secs 1..604800 (SigV4's 7-day
// maximum). `endpoint` is the S3 service URL (https://s3.eu-west-1.amazonaws.com, MinIO, R2...)
// giving path-style /bucket/file_key, or the bucket's own URL (host starting "<bucket>.") giving
// virtual-hosted /file_key. file_key is percent-encoded per segment ("/" kept). `json_path`
// (optional, a dotted path) names the object inside the data that receives `key`. Time comes from
// util/clock.ts. Credentials never appear in messages.
import aws4 from 'aws4';
import { TransformError, type TransformRun } from './types.ts';
import { nowMs } from './util/clock.ts';
import { choice, config, dataPath, int, text } from './util/fields.ts';
import { setPath, splitPath } from './util/path.ts';

const W = 's3_generate_presigned_url';
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const [bucket, fileKey, region] = (['bucket', 'file_key', 'region'] as const).map((f) => text(a, f, W, { nonEmpty: true }));
  const accessKeyId = text(a, 'access_key_id', W, { nonEmpty: true });
  const secretAccessKey = text(a, 'secret_access_key', W, { nonEmpty: true });
  const expires = int(a, 'expiration_secs', W, 1, 604800);
  const method = choice(a, 'operation', W, ['get', 'put'] as const, 'get').toUpperCase();
  let url: URL;
  try {
    url = new URL(text(a, 'endpoint', W, { nonEmpty: true }));
  } catch (e) {
    if (e instanceof TransformError) throw e;
    throw new TransformError(`${W}: \`endpoint\` is not a URL`);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new TransformError(`${W}: \`endpoint\` must be an http(s) URL without credentials, query or fragment`);
  const virtual = url.hostname.startsWith(`${bucket.toLowerCase()}.`);
  const base = url.pathname.replace(/\/+$/, '');
  const path = `${base}${virtual ? '' : `/${rfc3986(bucket)}`}/${fileKey.split('/').map(rfc3986).join('/')}`;
  const amzDate = new Date(nowMs()).toISOString().replace(/[:-]|\.\d{3}/g, '');
  const signed = aws4.sign(
    { host: url.host, path: `${path}?X-Amz-Expires=${expires}&X-Amz-Date=${amzDate}`, method, service: 's3', region, signQuery: true },
    { accessKeyId, secretAccessKey },
  );
  const out = `${url.protocol}//${url.host}${signed.path}`;
  const at = a.json_path === undefined ? [] : dataPath(a.json_path, W, 'json_path');
  return setPath(data, [...at, ...splitPath(a.key, W)], out, W);
};
