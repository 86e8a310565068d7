// Hostile and wrong-typed input: every new transform either returns or throws a TransformError
// (never a TypeError or RangeError), secrets never reach a message, prototypes stay clean.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asserts } from '../../runtime/asserts/index.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { clean, failure, hostile, t } from './helpers.ts';

const NEW = ['replace_values', 'flatten', 'extract_with_regex', 'extract_with_css', 'b64_decode', 'b64_decode_as_json',
  'b64_encode', 'yaml_to_json', 'parse_csv', 'to_csv', 'encode_uri', 'encode_uri_component', 'decode_uri',
  'decode_uri_component', 'generate_slug', 'bcrypt', 'generate_password', 'generate_bytes', 'encrypt_value',
  'decrypt_value', 'hmac', 'add_jwt', 'read_jwt', 'totp', 's3_generate_presigned_url'];

async function onlyClean(name: string, data: unknown, args: unknown): Promise<void> {
  try {
    await t(name, data, args);
  } catch (e) {
    if (!(e instanceof TransformError)) throw new Error(`${name} threw ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
}

describe('wrong types', () => {
  const datas = [null, undefined, 'text', 42, true, [], [1, 'a', null], {}, { a: { b: [1] } }];
  const argss = [null, undefined, 42, 'a.b', '', [], ['x'], {}, { key: 5 }, { key: '', value: {} }, { key: 'k', json_path: 7 },
    { key: 'k', secret: 1, data: [], length: -1, cost: 'high', token: {}, selector: 1, expr: 1, keys: 'x', key_separator: 1 }];
  for (const name of NEW)
    it(name, async () => {
      for (const d of datas) for (const a of argss) await onlyClean(name, d, a);
      await onlyClean(name, hostile(), { key: '__proto__', json_path: '__proto__' });
      expect(clean()).toBe(true);
    });

  it('random configs and data (fast-check)', async () => {
    const keys = ['key', 'value', 'json_path', 'secret', 'data', 'length', 'cost', 'token', 'selector', 'expr', 'keys',
      'key_separator', 'target_value', 'values', 'find_str', 'regex', 'nonce', 'tag', 'secret_key', 'digits', 'period', 'encoding'];
    const arg = fc.oneof(fc.string(), fc.dictionary(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...NEW.filter((n) => n !== 'bcrypt')), fc.jsonValue({ maxDepth: 3 }), arg,
      async (name, d, a) => { await onlyClean(name, d, a); }), { numRuns: 1500 });
    expect(clean()).toBe(true);
  });
});

describe('huge and malformed strings', () => {
  it('large base64 decodes; large garbage fails cleanly', async () => {
    const big = 'A'.repeat(8 * 1024 * 1024);
    expect(t('b64_decode', big, '')).toHaveLength(6 * 1024 * 1024);
    await failure('b64_decode', big + '!', '');
    await failure('b64_decode_as_json', 'e'.repeat(1_000_001), '');
  });
  it('large CSV and YAML parse, broken ones fail', async () => {
    const csv = 'a,b\n' + '1,2\n'.repeat(100_000);
    expect(t('parse_csv', csv, '')).toHaveLength(100_000);
    await failure('parse_csv', csv + '"', '');
    await failure('yaml_to_json', '['.repeat(10_000), '');
  });
  it('large text through the URI and slug transforms', () => {
    const s = 'ä/'.repeat(500_000);
    expect(t('decode_uri_component', t('encode_uri_component', s, ''), '')).toBe(s);
    expect(t('generate_slug', 'Ab '.repeat(100_000), '')).toHaveLength(300_000 - 1);
  });
});

describe('secrets never appear in messages', () => {
  const SECRET = 'TOPSECRET-0123456789-TOPSECRET';
  it('keyed transforms', async () => {
    await failure('hmac', {}, { key: 'k', secret: SECRET, data: 'x', algorithm: 'md5' }, SECRET);
    await failure('hmac', {}, { key: 7, secret: SECRET, data: 'x' }, SECRET);
    await failure('totp', {}, { key: 'k', secret: SECRET }, SECRET); // "-" and "0189" are not base32
    await failure('totp', {}, { key: 'k', secret: SECRET, encoding: 'hex' }, SECRET);
    await failure('encrypt_value', {}, { key: 'k', data: 'x', secret_key: SECRET, nonce: '' }, SECRET);
    await failure('decrypt_value', {}, { key: 'k', value: 'AA==', nonce: 'a'.repeat(12), tag: 'A'.repeat(22), secret_key: SECRET }, SECRET);
    await failure('add_jwt', {}, { key: 'k', secret: SECRET, data: {}, exp: 'never' }, SECRET);
    await failure('read_jwt', {}, { key: 'k', token: `${SECRET}.x.y`, secret: SECRET }, SECRET);
    await failure('s3_generate_presigned_url', {}, { key: 'k', bucket: 'b', file_key: 'f', expiration_secs: 0, endpoint: 'https://s3.example',
      region: 'r', access_key_id: SECRET, secret_access_key: SECRET }, SECRET);
    await failure('s3_generate_presigned_url', {}, { key: 'k', bucket: 'b', file_key: 'f', expiration_secs: 60, endpoint: `https://user:${SECRET}@s3.example`,
      region: 'r', access_key_id: 'AK', secret_access_key: SECRET }, SECRET);
  });
  it('assertions', () => {
    for (const [op, cfg] of [['is_valid_hmac', { secret: SECRET, data: SECRET }], ['is_valid_totp', { secret: SECRET }],
      ['is_valid_totp', { secret: 'JBSWY3DPEHPK3PXP', algorithm: SECRET }]] as const)
      for (const actual of [SECRET, null, 123, 'abc'])
        expect(asserts[op]!.explain(actual, cfg)).not.toContain(SECRET);
  });
});

describe('s3_generate_presigned_url options', () => {
  const base = { key: 'url', bucket: 'uploads', expiration_secs: '900', region: 'auto', access_key_id: 'AK', secret_access_key: 'SK' };
  it('path-style for a service endpoint, put, encoded keys, json_path', () => {
    const out = t('s3_generate_presigned_url', { files: {} }, { ...base, file_key: 'dir/a b+c(1).txt', endpoint: 'http://localhost:9000/', operation: 'put', json_path: '$.files' });
    const url = new URL(out.files.url);
    expect(url.host).toBe('localhost:9000');
    expect(url.pathname).toBe('/uploads/dir/a%20b%2Bc%281%29.txt');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AK\/\d{8}\/auto\/s3\/aws4_request$/);
  });
  it('refuses bad endpoints, operations and lifetimes', async () => {
    for (const bad of [{ endpoint: 'ftp://x' }, { endpoint: 'not a url' }, { endpoint: 'https://x/?a=1' }, { operation: 'delete' },
      { expiration_secs: 604801 }, { file_key: '' }])
      await failure('s3_generate_presigned_url', {}, { ...base, file_key: 'f', endpoint: 'https://s3.example', ...bad });
  });
});
