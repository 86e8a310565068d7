// s3_generate_presigned_url -> a SigV4 query-presigned URL under `key` (util/s3-presign.ts, shared
// with the aws action). operation get (default: download) or put (upload); expiration_secs
// 1..604800. `json_path` (optional, a dotted path) names the object inside the data that receives
// `key`. Time comes from util/clock.ts. Credentials never appear in messages.
import { type TransformRun } from './types.ts';
import { nowMs } from './util/clock.ts';
import { choice, config, dataPath, int, text } from './util/fields.ts';
import { setPath, splitPath } from './util/path.ts';
import { presignS3 } from './util/s3-presign.ts';
import { MAX_SIGNED_EXPIRES_S } from './util/url-signing.ts';

const W = 's3_generate_presigned_url';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const [bucket, fileKey, region] = (['bucket', 'file_key', 'region'] as const).map((f) => text(a, f, W, { nonEmpty: true }));
  const accessKeyId = text(a, 'access_key_id', W, { nonEmpty: true });
  const secretAccessKey = text(a, 'secret_access_key', W, { nonEmpty: true });
  const expires = int(a, 'expiration_secs', W, 1, MAX_SIGNED_EXPIRES_S);
  const method = choice(a, 'operation', W, ['get', 'put'] as const, 'get') === 'put' ? 'PUT' : 'GET';
  const endpoint = text(a, 'endpoint', W, { nonEmpty: true });
  const out = presignS3({ endpoint, bucket: bucket!, key: fileKey!, region: region!, accessKeyId, secretAccessKey, expires, method, now: nowMs() }, W);
  const at = a.json_path === undefined ? [] : dataPath(a.json_path, W, 'json_path');
  return setPath(data, [...at, ...splitPath(a.key, W)], out, W);
};
