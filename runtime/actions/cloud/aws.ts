// `aws` action: a SigV4 presigned S3 URL for an upload (PUT) or a download (GET), signed by the code
// the s3_generate_presigned_url transform uses. region defaults to us-east-1; without `endpoint` the
// URL is AWS's virtual-hosted one (https://<bucket>.s3.<region>.amazonaws.com/<key>) for a
// DNS-compatible bucket name, else path-style. Nothing is sent: signing is local.
import type { ActionKind } from '../types.ts';
import { presignS3 } from '../../transforms/util/s3-presign.ts';
import { awsCredential } from './credentials.ts';
import { endpointOf } from './endpoint.ts';
import { cloudFailure, signedUrlData, signedUrlRequest } from './signed-url.ts';

const REGION = /^[a-z0-9-]{1,40}$/;
const VIRTUAL = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export const aws: ActionKind = async (config, ctx) => {
  try {
    const c = (config ?? {}) as Record<string, unknown>;
    const region = c.region === undefined || c.region === null || c.region === '' ? 'us-east-1' : c.region;
    if (typeof region !== 'string' || !REGION.test(region)) return cloudFailure('aws: region must be an AWS region name such as eu-west-1');
    const r = signedUrlRequest(c, 'aws');
    const dflt = VIRTUAL.test(r.bucket) ? `https://${r.bucket}.s3.${region}.amazonaws.com` : `https://s3.${region}.amazonaws.com`;
    const cred = awsCredential(ctx.scope.env, String(c.credential ?? ''));
    const url = presignS3({ endpoint: endpointOf(c.endpoint, dflt, 'aws'), region, ...r, ...cred }, 'aws');
    return { ok: true, data: signedUrlData(url, r) };
  } catch (e) {
    return cloudFailure(e);
  }
};
