// Hashing, random generation, encryption, signing and the two verifying assertions.
import bcryptjs from 'bcryptjs';
import { decodeJwt, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { asserts } from '../../runtime/asserts/index.ts';
import { transforms } from '../../runtime/transforms/index.ts';
import { setClock } from '../../runtime/transforms/util/clock.ts';
import { failure, frozen, t } from './helpers.ts';

afterEach(() => setClock());
const KEY = 'k'.repeat(32); // a 32-character text key

describe('bcrypt', () => {
  it('is async and hashes value or a jq selection; the hash verifies', async () => {
    expect(transforms.bcrypt!.spec).toEqual({ fields: { jq: 'jq' }, async: true });
    const out = await t('bcrypt', frozen({ user: 'ann' }), { key: 'hash', value: 's3cret', cost: 4 });
    expect(out.user).toBe('ann');
    expect(out.hash).toMatch(/^\$2b\$04\$/);
    expect(bcryptjs.compareSync('s3cret', out.hash)).toBe(true);
    expect(bcryptjs.compareSync('other', out.hash)).toBe(false);
    const viaJq = await t('bcrypt', { pw: 'x' }, { key: 'h', jq: (d: any) => d.pw, cost: '5' });
    expect(bcryptjs.compareSync('x', viaJq.h)).toBe(true);
    expect((await t('bcrypt', {}, { key: 'h', value: 'x' })).h).toMatch(/^\$2b\$10\$/);
  });
  it('refuses bad cost, both/neither inputs, and input bcrypt would truncate', async () => {
    await failure('bcrypt', {}, { key: 'h', value: 'x', cost: 3 });
    await failure('bcrypt', {}, { key: 'h', value: 'x', cost: 16 });
    await failure('bcrypt', {}, { key: 'h' });
    await failure('bcrypt', {}, { key: 'h', value: 'x', jq: () => 'y' });
    await failure('bcrypt', {}, { key: 'h', value: 'é'.repeat(37) }, 'é'.repeat(37)); // 74 bytes
    await failure('bcrypt', {}, { key: 'h', value: { a: 1 } });
  });
});

describe('generate_password', () => {
  const classes = { numbers: /\d/, lowercase_letters: /[a-z]/, uppercase_letters: /[A-Z]/, symbols: /[^a-zA-Z\d ]/, spaces: / / };
  it('strict includes one of every chosen class, at every length', () => {
    const all = { numbers: true, lowercase_letters: true, uppercase_letters: true, symbols: true, spaces: true, strict: true };
    for (let i = 0; i < 200; i++) {
      const pw: string = t('generate_password', {}, { key: 'pw', length: 5, ...all }).pw;
      expect(pw).toHaveLength(5);
      for (const re of Object.values(classes)) expect(pw).toMatch(re);
    }
  });
  it('defaults to letters and numbers; classes can be turned off; similar characters excluded', () => {
    const pw: string = t('generate_password', {}, { key: 'pw', length: 256 }).pw;
    expect(pw).toMatch(/^[a-zA-Z0-9]{256}$/);
    expect(t('generate_password', {}, { key: 'pw', length: 64, lowercase_letters: false, uppercase_letters: false }).pw).toMatch(/^\d{64}$/);
    const clear: string = t('generate_password', {}, { key: 'pw', length: 256, symbols: true, exclude_similar_characters: true }).pw;
    expect(clear).not.toMatch(/[il1Lo0O|]/);
    expect(clear).not.toMatch(/["'`\\]/);
  });
  it('differs between runs and rejects bad settings', async () => {
    expect(t('generate_password', {}, { key: 'p', length: 32 }).p).not.toBe(t('generate_password', {}, { key: 'p', length: 32 }).p);
    await failure('generate_password', {}, { key: 'p', length: 3 });
    await failure('generate_password', {}, { key: 'p', length: 100000 });
    await failure('generate_password', {}, { key: 'p', length: 'abc' });
    await failure('generate_password', {}, { key: 'p', length: 8, numbers: 'yes' });
    await failure('generate_password', {}, { key: 'p', length: 8, numbers: false, lowercase_letters: false, uppercase_letters: false });
    await failure('generate_password', {}, { key: 'p', length: 4, symbols: true, spaces: true, strict: true });
  });
});

describe('generate_bytes', () => {
  it('gives length random bytes as hex', async () => {
    const a = t('generate_bytes', {}, { key: 'b', length: 16 }).b;
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(t('generate_bytes', {}, { key: 'b', length: '16' }).b).not.toBe(a);
    await failure('generate_bytes', {}, { key: 'b', length: 0 });
    await failure('generate_bytes', {}, { key: 'b', length: 1025 });
  });
});

describe('encrypt_value / decrypt_value', () => {
  const keys = { text: KEY, hex: 'ab'.repeat(32), base64: Buffer.alloc(32, 7).toString('base64') };
  it('round trip with each key form and a random nonce', () => {
    for (const secret_key of Object.values(keys)) {
      const enc = t('encrypt_value', {}, { key: 'e', data: 'hello ✓', secret_key, nonce: 'random' }).e;
      expect(Buffer.from(enc.nonce, 'base64')).toHaveLength(12);
      expect(t('decrypt_value', {}, { key: 'p', ...enc, secret_key }).p).toBe('hello ✓');
    }
    const obj = t('encrypt_value', {}, { key: 'e', data: { a: [1] }, secret_key: KEY, nonce: 'n'.repeat(12) }).e;
    expect(t('decrypt_value', {}, { key: 'p', ...obj, secret_key: KEY }).p).toBe('{"a":[1]}');
  });
  it('fails cleanly on a wrong key, altered value, nonce or tag', async () => {
    const enc = t('encrypt_value', {}, { key: 'e', data: 'secret text', secret_key: KEY, nonce: '' }).e;
    const flip = (b64: string) => { const b = Buffer.from(b64, 'base64'); b[0] ^= 1; return b.toString('base64'); };
    const msg = /authentication failed/;
    expect((await failure('decrypt_value', {}, { key: 'p', ...enc, secret_key: 'x'.repeat(32) }, 'x'.repeat(32))).message).toMatch(msg);
    expect((await failure('decrypt_value', {}, { key: 'p', ...enc, value: flip(enc.value), secret_key: KEY }, KEY)).message).toMatch(msg);
    expect((await failure('decrypt_value', {}, { key: 'p', ...enc, tag: flip(enc.tag), secret_key: KEY })).message).toMatch(msg);
    expect((await failure('decrypt_value', {}, { key: 'p', ...enc, nonce: flip(enc.nonce), secret_key: KEY })).message).toMatch(msg);
    await failure('decrypt_value', {}, { key: 'p', ...enc, tag: enc.tag.slice(0, 8), secret_key: KEY }); // truncated tag
    await failure('decrypt_value', {}, { key: 'p', ...enc, value: '***', secret_key: KEY });
  });
  it('rejects keys and nonces of the wrong size without echoing them', async () => {
    await failure('encrypt_value', {}, { key: 'e', data: 'x', secret_key: 'short-secret', nonce: '' }, 'short-secret');
    await failure('encrypt_value', {}, { key: 'e', data: 'x', secret_key: 'zz'.repeat(32), nonce: '' });
    await failure('encrypt_value', {}, { key: 'e', data: 'x', secret_key: KEY, nonce: 'abc' });
    await failure('encrypt_value', {}, { key: 'e', secret_key: KEY, nonce: '' });
  });
});

describe('add_jwt / read_jwt', () => {
  const secret = 'a-signing-secret-of-32-bytes-ok!';
  it('signs claims (object, field list, all) with iat and exp; read_jwt verifies', async () => {
    setClock(() => 1_700_000_000_000);
    const out = await t('add_jwt', frozen({ sub: 'u1', role: 'admin', pw: 'x' }), { key: 'jwt', secret, data: ['sub', 'role', 'missing'], exp: '1h' });
    expect(decodeJwt(out.jwt)).toEqual({ sub: 'u1', role: 'admin', iat: 1_700_000_000, exp: 1_700_003_600 });
    expect(decodeJwt((await t('add_jwt', { a: 1 }, { key: 'j', secret, data: 'all' })).j)).toEqual({ a: 1, iat: 1_700_000_000 });
    expect(decodeJwt((await t('add_jwt', {}, { key: 'j', secret, data: { scope: 'read' }, exp: '30m' })).j).exp).toBe(1_700_001_800);
    const read = await t('read_jwt', {}, { key: 'claims', token: out.jwt, secret });
    expect(read.claims).toEqual({ header: { alg: 'HS256', typ: 'JWT' }, payload: decodeJwt(out.jwt), verified: true });
    const unverified = await t('read_jwt', {}, { key: 'c', token: `Bearer ${out.jwt}` });
    expect(unverified.c.verified).toBe(false);
    expect(unverified.c.payload.sub).toBe('u1');
  });
  it('read_jwt with a secret rejects a wrong secret, tampering and expiry', async () => {
    setClock(() => 1_700_000_000_000);
    const { j } = await t('add_jwt', {}, { key: 'j', secret, data: { sub: 'u1' }, exp: '1m' });
    expect((await failure('read_jwt', {}, { key: 'c', token: j, secret: 'wrong-secret' }, 'wrong-secret')).message).toMatch(/signature/);
    const [h, , s] = j.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'admin' })).toString('base64url')}.${s}`;
    await failure('read_jwt', {}, { key: 'c', token: forged, secret });
    setClock(() => 1_700_000_000_000 + 120_000);
    expect((await failure('read_jwt', {}, { key: 'c', token: j, secret })).message).toMatch(/expired/);
  });
  it('fails cleanly on bad input', async () => {
    await failure('add_jwt', {}, { key: 'j', secret: 'short', data: {} }, 'short');
    await failure('add_jwt', {}, { key: 'j', secret, data: 'some' });
    await failure('add_jwt', 'text', { key: 'j', secret, data: 'all' });
    await failure('add_jwt', {}, { key: 'j', secret, data: {}, exp: 'soon' });
    await failure('read_jwt', {}, { key: 'c', token: 'not.a.jwt' });
    await failure('read_jwt', {}, { key: 'c', token: 42 });
  });
  it('read_jwt verifies HS256, HS384 and HS512 with one secret, again and again; a token of another algorithm is refused', async () => {
    const key = new TextEncoder().encode(secret);
    for (const alg of ['HS384', 'HS512', 'HS256', 'HS384', 'HS512']) {
      const token = await new SignJWT({ sub: alg }).setProtectedHeader({ alg }).sign(key);
      expect(await t('read_jwt', {}, { key: 'c', token, secret })).toEqual({ c: { header: { alg }, payload: { sub: alg }, verified: true } });
      expect((await failure('read_jwt', {}, { key: 'c', token, secret: `${secret}x` })).message).toMatch(/signature/);
    }
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.`;
    expect((await failure('read_jwt', {}, { key: 'c', token: none, secret })).message).toMatch(/^read_jwt: invalid token: /);
  });
});

describe('is_valid_hmac / is_valid_totp', () => {
  const hmacCfg = { secret: 'whsec', data: '{"event":"paid"}' };
  it('is_valid_hmac verifies what hmac signs and never echoes the secret', () => {
    const sig = t('hmac', {}, { key: 's', ...hmacCfg }).s;
    const op = asserts.is_valid_hmac!;
    expect(op.check(sig, hmacCfg)).toBe(true);
    expect(op.check(sig.slice(0, -2), hmacCfg)).toBe(false);
    expect(op.check(sig, { ...hmacCfg, data: '{"event":"refund"}' })).toBe(false);
    expect(op.check(sig, { ...hmacCfg, algorithm: 'sha512' })).toBe(false);
    expect(op.check(null, hmacCfg)).toBe(false);
    expect(op.check('zz', hmacCfg)).toBe(false);
    expect(op.check(sig, { data: 'x' })).toBe(false);
    for (const why of [op.explain('nope', hmacCfg), op.explain(1, hmacCfg), op.explain(sig, { secret: 'whsec' })]) {
      expect(why).not.toContain('whsec');
      expect(why).not.toContain(sig);
    }
  });
  it('is_valid_totp accepts the current step and one either side, nothing further', () => {
    const cfg = { secret: 'JBSWY3DPEHPK3PXP' };
    const at = (ms: number) => { setClock(() => ms); return t('totp', {}, { key: 'c', secret: cfg.secret }).c as string; };
    const base = 1_700_000_010_000; // 10 s into a 30 s step
    const codes = [-2, -1, 0, 1, 2].map((k) => at(base + k * 30_000));
    setClock(() => base);
    const op = asserts.is_valid_totp!;
    expect(codes.map((c) => op.check(c, cfg))).toEqual([false, true, true, true, false]);
    expect(op.check(codes[2], { ...cfg, digits: 8 })).toBe(false);
    expect(op.check(codes[2], { secret: 'not base32!' })).toBe(false);
    expect(op.explain(codes[0], cfg)).not.toContain(codes[2]);
    expect(op.explain(codes[0], cfg)).not.toContain(cfg.secret);
    expect(op.explain('1', { secret: '!!' })).toMatch(/not valid base32/);
  });
  it('is_valid_totp reads a number with its leading zeros restored (RFC 6238: 07081804)', () => {
    setClock(() => 1111111109_000);
    const cfg = { secret: '12345678901234567890', encoding: 'ascii', digits: 8 };
    expect(asserts.is_valid_totp!.check(7081804, cfg)).toBe(true);
    expect(asserts.is_valid_totp!.check('7081804', cfg)).toBe(false);
  });
});
