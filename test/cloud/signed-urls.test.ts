// aws and google actions in both execution paths, with the clock frozen: AWS's published SigV4
// presign example, Google's published V4 conformance vectors, and URLs compared exactly with a second, independent implementation (the AWS
// SDK's S3 presigner and SigV4 signer; @google-cloud/storage's getSignedUrl, which signs offline with
// the given key). Failures (no credential) name the action and are retried per the non-HTTP rule.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpRequest } from '@smithy/protocol-http';
import { Hash } from '@smithy/hash-node';
import { formatUrl } from '@aws-sdk/util-format-url';
import { Storage } from '@google-cloud/storage';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { setClock } from '../../runtime/transforms/util/clock.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { check } from '../schema/helpers.ts';
import { compileConfig } from '../../compiler/project.ts';
import { createCapture } from '../../runtime/capture/index.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { CONFORMANCE_ACCOUNT, CONFORMANCE_VECTORS } from './gcs-conformance.ts';

afterEach(() => setClock());

const MODES = ['compiled', 'interpreted'] as const;
const AWS_KEY = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const SERVICE_ACCOUNT = { type: 'service_account', project_id: 'demo', client_email: 'signer@demo.iam.gserviceaccount.com', private_key: rsa.privateKey };
const SECRETS = { S3_ACCESS_KEY_ID: AWS_KEY.accessKeyId, S3_SECRET_ACCESS_KEY: AWS_KEY.secretAccessKey, GCS_SERVICE_ACCOUNT: JSON.stringify(SERVICE_ACCOUNT) };
let n = 0;

async function run(mode: (typeof MODES)[number], kind: 'aws' | 'google', block: Record<string, unknown>, action: Record<string, unknown> = {}, secrets: Record<string, string> = SECRETS) {
  const yaml = stringify({ interfaces: { sign: { show_error_detail: true, actions: [{ name: 'Link', [kind]: block, ...action }] } } });
  const plan = await planOf(`cloud-${mode}-${++n}.yaml`, mode, yaml);
  const i = plan.interfaces[0]!;
  return executeInterface(plan, i, { method: 'POST', path: i.route, params: {}, headers: {}, body: { key: 'reports/2026 Q1/summary (final).csv' }, rawBody: '' }, { trigger: 'test', env: testEnv({}, secrets), services: { clock: systemClock } });
}
const data = async (r: ReturnType<typeof run>) => ((await r).response.body as any).Link;

// The AWS SDK's presigner, as getSignedUrl drives it, on the same request. The SDK keeps
// x-amz-content-sha256 as a header; told to leave it unsigned and in place, it signs UNSIGNED-PAYLOAD
// exactly as a query-presigned URL does (and reproduces AWS's documented example, below).
async function sdkPresign(o: { host: string; path: string; method: 'GET' | 'PUT'; at: Date; expiresIn: number; region?: string; contentType?: string; sessionToken?: string }) {
  const credentials = { ...AWS_KEY, ...(o.sessionToken ? { sessionToken: o.sessionToken } : {}) };
  const headers: Record<string, string> = { host: o.host };
  const request = new HttpRequest({ protocol: 'https:', hostname: o.host, method: o.method, path: o.path, headers });
  const keep = () => new Set(['x-amz-content-sha256']);
  const opts = { signingDate: o.at, expiresIn: o.expiresIn, unhoistableHeaders: keep(), unsignableHeaders: keep() };
  if (!o.contentType) return formatUrl(await new S3RequestPresigner({ credentials, region: o.region ?? 'us-east-1', sha256: Hash.bind(null, 'sha256') }).presign(request, opts));
  // The S3 presigner never signs content-type; the SDK's SigV4 signer does when the request has it.
  headers['content-type'] = o.contentType;
  headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
  const signer = new SignatureV4({ credentials, region: o.region ?? 'us-east-1', service: 's3', sha256: Hash.bind(null, 'sha256'), uriEscapePath: false, applyChecksum: false });
  const signed = await signer.presign(request, opts);
  return formatUrl({ ...signed, headers: {} } as HttpRequest);
}

/** The SDK prints the query sorted by name (X-Amz-Signature before X-Amz-SignedHeaders); ours keeps
 *  AWS's documented order (signature last). Same origin, path and raw (encoded) parameters. */
const sameUrl = (ours: string, sdk: string) => {
  const parts = (u: string) => { const [base, q = ''] = u.split('?'); return [base, ...q.split('&').sort()]; };
  expect(parts(ours)).toEqual(parts(sdk));
  expect(ours.split('&').at(-1)).toMatch(/^X-Amz-Signature=[0-9a-f]{64}$/);
};

describe.each(MODES)('aws (%s)', (mode) => {
  it("reproduces AWS's documented SigV4 presigned URL example", async () => {
    setClock(() => Date.UTC(2013, 4, 24));
    const out = await data(run(mode, 'aws', { credential: 'S3', endpoint: 'https://examplebucket.s3.amazonaws.com', get_signed_download_url: { bucket: 'examplebucket', key: 'test.txt', expires: '1d' } }));
    expect(out).toEqual({
      url: 'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
      method: 'GET', headers: {}, expires_at: '2013-05-25T00:00:00.000Z',
    });
  });

  it('matches the AWS SDK exactly: download, upload with a signed content type, path-style endpoint, session token', async () => {
    const at = new Date(Date.UTC(2026, 10, 26, 12, 34, 56));
    setClock(() => at.getTime());
    const key = 'reports/2026 Q1/summary (final).csv';
    const encoded = '/reports/2026%20Q1/summary%20%28final%29.csv';
    const down = await data(run(mode, 'aws', { credential: 'S3', region: 'eu-west-1', get_signed_download_url: { bucket: 'acme-data', key: 'a|body->key|' } }));
    sameUrl(down.url, await sdkPresign({ host: 'acme-data.s3.eu-west-1.amazonaws.com', path: encoded, method: 'GET', at, expiresIn: 900, region: 'eu-west-1' }));
    expect(down.expires_at).toBe('2026-11-26T12:49:56.000Z');

    const up = await data(run(mode, 'aws', { credential: 'S3', region: 'eu-west-1', get_signed_upload_url: { bucket: 'acme-data', key, expires: '1h', content_type: 'text/csv' } }));
    expect(up.url).toContain('X-Amz-SignedHeaders=content-type%3Bhost');
    sameUrl(up.url, await sdkPresign({ host: 'acme-data.s3.eu-west-1.amazonaws.com', path: encoded, method: 'PUT', at, expiresIn: 3600, region: 'eu-west-1', contentType: 'text/csv' }));
    expect(up).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'text/csv' } });

    const minio = await data(run(mode, 'aws', { credential: 'S3', endpoint: 'http://127.0.0.1:9000', get_signed_upload_url: { bucket: 'acme.data', key: 'x.bin' } }));
    expect(minio.url.startsWith('http://127.0.0.1:9000/acme.data/x.bin?')).toBe(true);
    sameUrl(minio.url.replace('http://', 'https://'), await sdkPresign({ host: '127.0.0.1:9000', path: '/acme.data/x.bin', method: 'PUT', at, expiresIn: 900 }));

    const token = await data(run(mode, 'aws', { credential: 'S3', get_signed_download_url: { bucket: 'b-1', key: 'k' } }, {}, { ...SECRETS, S3_SESSION_TOKEN: 'FwoGZXIvYXdzEXAMPLE//token=' }));
    sameUrl(token.url, await sdkPresign({ host: 'b-1.s3.us-east-1.amazonaws.com', path: '/k', method: 'GET', at, expiresIn: 900, sessionToken: 'FwoGZXIvYXdzEXAMPLE//token=' }));
  });

  it('a capture of the run redacts the credential (the access key id inside the URL too)', async () => {
    const r = await run(mode, 'aws', { credential: 'S3', get_signed_download_url: { bucket: 'b-1', key: 'k' } });
    expect(JSON.stringify(r.state)).not.toContain(AWS_KEY.secretAccessKey);
    const store = new MemoryStore();
    const plan = await planOf(`cloud-cap-${mode}.yaml`, mode, stringify({ interfaces: { sign: { capture: 'all', actions: [{ name: 'Link', aws: { credential: 'S3', get_signed_download_url: { bucket: 'b-1', key: 'k' } } }] } } }));
    await createCapture({ store, now: Date.now }).afterRun(plan, plan.interfaces[0]!, r, Object.values(SECRETS));
    const [captured] = await store.listCaptures({});
    const text = JSON.stringify(captured);
    expect(text).toContain('X-Amz-Credential=[redacted]%2F');
    for (const v of Object.values(SECRETS)) expect(text).not.toContain(v);
  });

  it('a missing credential fails naming the action and the secrets to set, retried', async () => {
    const r = await run(mode, 'aws', { credential: 'NOPE', get_signed_download_url: { bucket: 'b', key: 'k' } }, { retry: { attempts: 2, delay: 0, jitter: 'none' } });
    expect(r.response.status).toBe(500);
    expect((r.response.body as any).error).toEqual({ status: 500, message: 'action "Link" failed', action: 'Link', detail: 'aws: credential "NOPE" is not configured: set SERVICE__SECRET__NOPE_ACCESS_KEY_ID and SERVICE__SECRET__NOPE_SECRET_ACCESS_KEY' });
    expect(r.state.steps.Link!.attempts).toBe(2);
  });
});

describe.each(MODES)('google (%s)', (mode) => {
  const storage = new Storage({ projectId: 'demo', credentials: SERVICE_ACCOUNT });

  it('matches @google-cloud/storage getSignedUrl (v4) exactly, download and upload with content type', async () => {
    // In the future: the library refuses an expiry before the real clock's now.
    const at = new Date(Date.UTC(2031, 0, 2, 3, 4, 5));
    setClock(() => at.getTime());
    const key = 'reports/2026 Q1/summary (final).csv';
    const file = storage.bucket('acme-data').file(key);
    const down = await data(run(mode, 'google', { credential: 'GCS', get_signed_download_url: { bucket: 'acme-data', key: 'a|body->key|', expires: '10m' } }));
    const [expected] = await file.getSignedUrl({ version: 'v4', action: 'read', accessibleAt: at, expires: at.getTime() + 600_000 });
    expect(down).toEqual({ url: expected, method: 'GET', headers: {}, expires_at: '2031-01-02T03:14:05.000Z' });

    const up = await data(run(mode, 'google', { credential: 'GCS', get_signed_upload_url: { bucket: 'acme-data', key, expires: '7d', content_type: 'text/csv' } }));
    const [expectedUp] = await file.getSignedUrl({ version: 'v4', action: 'write', accessibleAt: at, expires: at.getTime() + 7 * 86400_000, contentType: 'text/csv' });
    expect(up.url).toBe(expectedUp);
    expect(up.url).toContain('X-Goog-SignedHeaders=content-type%3Bhost');
  });

  it("reproduces Google's published V4 conformance vectors (Simple GET, Simple PUT)", async () => {
    setClock(() => Date.parse('2019-02-01T09:00:00Z'));
    const secrets = { GCS_SERVICE_ACCOUNT: JSON.stringify(CONFORMANCE_ACCOUNT) };
    const get = await data(run(mode, 'google', { credential: 'GCS', get_signed_download_url: { bucket: 'test-bucket', key: 'test-object', expires: '10s' } }, {}, secrets));
    expect(get.url).toBe(CONFORMANCE_VECTORS.GET);
    const put = await data(run(mode, 'google', { credential: 'GCS', get_signed_upload_url: { bucket: 'test-bucket', key: 'test-object', expires: '10s' } }, {}, secrets));
    expect(put.url).toBe(CONFORMANCE_VECTORS.PUT);
  });

  it('a credential that is not a service-account key fails naming the action', async () => {
    const r = await run(mode, 'google', { credential: 'GCS', get_signed_download_url: { bucket: 'b', key: 'k' } }, {}, { GCS_SERVICE_ACCOUNT: '{"client_email": "x@y"}' });
    expect((r.response.body as any).error).toMatchObject({ action: 'Link', detail: 'google: SERVICE__SECRET__GCS_SERVICE_ACCOUNT has no client_email and private_key (expected the service account\'s JSON key)' });
  });

  it('a private key that is not one fails every time (keys are parsed once, failures never kept)', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await run(mode, 'google', { credential: 'GCS', get_signed_download_url: { bucket: 'b', key: 'k' } }, {}, { GCS_SERVICE_ACCOUNT: '{"client_email": "x@y", "private_key": "not a key"}' });
      expect((r.response.body as any).error).toMatchObject({ action: 'Link', detail: 'google: the service account\'s private_key could not sign (not a PEM RSA private key?)' });
    }
  });
});

describe('aws and google at check', () => {
  const cfg = (block: string) => `interfaces:\n  sign:\n    actions:\n      - name: Link\n        aws:\n          credential: S3\n${block}`;
  const errors = (yaml: string) => compileConfig('cloud.yaml', yaml).diagnostics.filter((d) => d.severity === 'error').map(({ line, col, message, hint }) => ({ at: `${line}:${col}`, message, hint }));
  it('refuses no operation block, or both, at the position', () => {
    expect(errors(cfg(''))).toEqual([{ at: '5:9', message: 'aws needs exactly one operation block, found none', hint: 'set one of get_signed_upload_url, get_signed_download_url' }]);
    const both = '          get_signed_upload_url: { bucket: b, key: k }\n          get_signed_download_url: { bucket: b, key: k }\n';
    expect(errors(cfg(both))).toEqual([{ at: '8:11', message: 'aws needs exactly one operation block, found get_signed_upload_url and get_signed_download_url', hint: 'set one of get_signed_upload_url, get_signed_download_url' }]);
  });
  it('refuses unknown fields and a credential that is not a name', () => {
    expect(check(cfg('          get_signed_upload_url: { bucket: b, key: k, acl: public }\n')).filter((d) => d.severity === 'error')).toHaveLength(1);
    expect(check(cfg('          get_signed_upload_url: { bucket: b, key: k }\n').replace('credential: S3', 'credential: a|secret::X|')).filter((d) => d.severity === 'error')).toHaveLength(1);
  });
});
