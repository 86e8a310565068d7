// Published test vectors: RFC 6238 Appendix B (TOTP), RFC 4231 (HMAC), AWS's SigV4 presigned URL
// example, and McGrew–Viega GCM test cases 13 and 14 (AES-256, zero key and IV).
import { afterEach, describe, expect, it } from 'vitest';
import { asserts } from '../../runtime/asserts/index.ts';
import { setClock } from '../../runtime/transforms/util/clock.ts';
import { t } from './helpers.ts';

afterEach(() => setClock());

describe('totp: RFC 6238 Appendix B', () => {
  const seeds = {
    sha1: '12345678901234567890',
    sha256: '12345678901234567890123456789012',
    sha512: '1234567890123456789012345678901234567890123456789012345678901234',
  };
  const table: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  for (const [time, ...codes] of table)
    (['sha1', 'sha256', 'sha512'] as const).forEach((algorithm, i) =>
      it(`${algorithm} at ${time}`, () => {
        setClock(() => time * 1000);
        const cfg = { secret: seeds[algorithm], encoding: 'ascii', digits: 8, algorithm };
        expect(t('totp', {}, { key: 'otp', ...cfg })).toEqual({ otp: codes[i] });
        expect(asserts.is_valid_totp!.check(codes[i], cfg)).toBe(true);
      }));

  it('the same seed as base32 and hex gives the same code', () => {
    setClock(() => 59_000);
    const base32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
    const hex = Buffer.from(seeds.sha1).toString('hex');
    expect(t('totp', {}, { key: 'o', secret: base32, digits: 8 }).o).toBe('94287082');
    expect(t('totp', {}, { key: 'o', secret: base32.toLowerCase().replace(/(.{4})/g, '$1 '), digits: 8 }).o).toBe('94287082');
    expect(t('totp', {}, { key: 'o', secret: hex, encoding: 'hex', digits: 8 }).o).toBe('94287082');
    expect(t('totp', {}, { key: 'o', secret: base32 }).o).toBe('287082'); // 6 digits by default
  });
});

describe('hmac: RFC 4231', () => {
  const cases = [
    { secret: '\x0b'.repeat(20), data: 'Hi There',
      sha256: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
      sha512: '87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854' },
    { secret: 'Jefe', data: 'what do ya want for nothing?',
      sha256: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      sha512: '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737' },
  ];
  cases.forEach((c, i) =>
    (['sha256', 'sha512'] as const).forEach((algorithm) =>
      it(`test case ${i === 0 ? 1 : 2} ${algorithm}, and is_valid_hmac accepts it`, () => {
        const out = t('hmac', {}, { key: 'sig', secret: c.secret, data: c.data, algorithm });
        expect(out.sig).toBe(c[algorithm]);
        const cfg = { secret: c.secret, data: c.data, algorithm };
        expect(asserts.is_valid_hmac!.check(c[algorithm], cfg)).toBe(true);
        expect(asserts.is_valid_hmac!.check(c[algorithm].toUpperCase(), cfg)).toBe(true);
        expect(asserts.is_valid_hmac!.check(`${algorithm}=${c[algorithm]}`, cfg)).toBe(true);
        const b64 = Buffer.from(c[algorithm], 'hex').toString('base64');
        expect(t('hmac', {}, { key: 'sig', secret: c.secret, data: c.data, algorithm, encoding: 'base64' }).sig).toBe(b64);
        expect(asserts.is_valid_hmac!.check(b64, { ...cfg, encoding: 'base64' })).toBe(true);
      })));
});

describe('s3_generate_presigned_url: AWS SigV4 query-string example', () => {
  it('reproduces the documented URL and signature', () => {
    setClock(() => Date.UTC(2013, 4, 24));
    const out = t('s3_generate_presigned_url', {}, {
      key: 'url', bucket: 'examplebucket', file_key: 'test.txt', expiration_secs: 86400,
      endpoint: 'https://examplebucket.s3.amazonaws.com', region: 'us-east-1',
      access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    });
    const url = new URL(out.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://examplebucket.s3.amazonaws.com/test.txt');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
      'X-Amz-Date': '20130524T000000Z',
      'X-Amz-Expires': '86400',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    });
  });
});

describe('AES-256-GCM: McGrew–Viega test cases 13 and 14', () => {
  const zeroKey = '00'.repeat(32), zeroNonce = '00'.repeat(12);
  it('case 13: empty plaintext', () => {
    const out = t('encrypt_value', {}, { key: 'enc', data: '', secret_key: zeroKey, nonce: zeroNonce }).enc;
    expect(out).toEqual({ value: '', nonce: Buffer.alloc(12).toString('base64'), tag: Buffer.from('530f8afbc74536b9a963b4f1c4cb738b', 'hex').toString('base64') });
  });
  it('case 14: 16 zero bytes, and back', () => {
    const out = t('encrypt_value', {}, { key: 'enc', data: '\0'.repeat(16), secret_key: zeroKey, nonce: zeroNonce }).enc;
    expect(Buffer.from(out.value, 'base64').toString('hex')).toBe('cea7403d4d606b6e074ec5d3baf39d18');
    expect(Buffer.from(out.tag, 'base64').toString('hex')).toBe('d0d1c8a799996bf0265b98b5d48ab919');
    expect(t('decrypt_value', {}, { key: 'p', ...out, secret_key: zeroKey }).p).toBe('\0'.repeat(16));
  });
});
