// `check` warns when a literal secret in add_jwt / hmac / encrypt_value is too short for it.
import { describe, expect, it } from 'vitest';
import { check, withActions } from './helpers.ts';

const post = (t: string) => withActions(`      - name: T
        input: a|body|
        post_transforms:
          - ${t}
`);

describe('literal secrets too short for their transform', () => {
  it('add_jwt: under 32 bytes', () => {
    expect(check(post('add_jwt: { key: jwt, secret: twenty-two-byte-secret, data: all }'))).toEqual([{
      at: '7:42', severity: 'warning',
      message: 'add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2), this one has 22',
      hint: 'every run of this transform would fail; use a|secret::NAME| with a random secret of 32 bytes or more',
    }]);
  });

  it('hmac: shorter than its hash', () => {
    expect(check(post('hmac: { key: sig, data: x, secret: s0123456789012345678901234567890123456789, algorithm: sha512 }')).map((d) => d.message))
      .toEqual(['hmac: a secret shorter than the hash (64 bytes, RFC 2104 §3) is weak, this one has 41']);
    expect(check(post('hmac: { key: sig, data: x, secret: short }')).map((d) => d.message))
      .toEqual(['hmac: a secret shorter than the hash (32 bytes, RFC 2104 §3) is weak, this one has 5']);
  });

  it('encrypt_value / decrypt_value: not a 32-byte key', () => {
    expect(check(post('encrypt_value: { key: box, data: x, secret_key: abc, nonce: abcdefghijkl }')).map((d) => d.message))
      .toEqual(['encrypt_value: the secret_key must be 32 bytes (64 hex digits, Base64 of 32 bytes, or 32 characters of text)']);
  });

  it('long enough literals, and secrets from markers, are not warned about', () => {
    const ok = [
      `add_jwt: { key: jwt, secret: ${'k'.repeat(32)}, data: all }`,
      'add_jwt: { key: jwt, secret: a|secret::JWT|, data: all }',
      `hmac: { key: sig, data: x, secret: ${'s'.repeat(32)} }`,
      `encrypt_value: { key: box, data: x, secret_key: ${'ab'.repeat(32)}, nonce: abcdefghijkl }`,
      'encrypt_value: { key: box, data: x, secret_key: a|var::AES|, nonce: abcdefghijkl }',
    ];
    for (const t of ok) expect(check(post(t))).toEqual([]);
  });

  it('finds transforms nested in chains', () => {
    const nested = post(`nested_transforms: { inner: [ { add_jwt: { key: jwt, secret: short, data: all } } ] }`);
    expect(check(nested).map((d) => d.message)).toContain('add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2), this one has 5');
  });
});
