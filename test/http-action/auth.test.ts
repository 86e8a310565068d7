// Outbound auth against servers that verify it: Basic, Bearer, and Digest (MD5 checked by the
// http-auth package, SHA-256 and variants by an independent verifier, plus RFC 7616 test vectors).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { parseChallenges } from '../../runtime/actions/http/auth-challenge.ts';
import { digestAuthorization, pickDigestChallenge } from '../../runtime/actions/http/digest.ts';
import { digestVerifier } from './digest-verifier.ts';
import { ctx, startUpstream, type Route } from './helpers.ts';

// Dev-only: a real third-party Digest server implementation (MD5).
const httpAuth: any = await import('http-auth' as string).then((m) => m.default ?? m, () => null);
const creds = { realm: 'pw', user: 'Mufasa', pass: 'Circle of Life' };
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const expectAuth = (header: string): Route => (req, res) => {
  res.statusCode = req.headers.authorization === header ? 200 : 401;
  res.end();
};

describe('outbound auth', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    const md5Server = httpAuth?.digest({ realm: creds.realm }, (u: string, cb: (h: string) => void) => cb(md5(`${u}:${creds.realm}:${creds.pass}`)));
    up = await startUpstream({
      '/basic': expectAuth(`Basic ${Buffer.from('ünï:p:w').toString('base64')}`),
      '/bearer': expectAuth('Bearer tok-123'),
      '/custom': expectAuth('Token abc'),
      '/http-auth': (req, res) => md5Server.check((_q: unknown, r: any) => r.end('in'))(req, res),
      '/sha256': digestVerifier({ ...creds, algorithms: ['SHA-256'] }),
      '/prefer': digestVerifier({ ...creds, algorithms: ['MD5', 'SHA-256'] }),
      '/sess-int': digestVerifier({ ...creds, algorithms: ['SHA-256-sess'], qop: 'auth-int' }),
      '/legacy': digestVerifier({ ...creds, algorithms: ['MD5'], qop: '' }),
      '/userhash': digestVerifier({ ...creds, algorithms: ['SHA-512-256'], userhash: true }),
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  it('sends Basic from user/pass as UTF-8', async () => {
    expect((await http({ url: `${up.url}/basic`, user: 'ünï', pass: 'p:w' }, ctx())).ok).toBe(true);
  });

  it('sends Bearer from bearer_auth', async () => {
    expect((await http({ url: `${up.url}/bearer`, bearer_auth: 'tok-123' }, ctx())).ok).toBe(true);
  });

  it('lets an explicit Authorization header win over auth settings', async () => {
    expect((await http({ url: `${up.url}/custom`, bearer_auth: 'x', headers: { Authorization: 'Token abc' } }, ctx())).ok).toBe(true);
  });

  it.skipIf(!httpAuth)('answers an MD5 Digest challenge that the http-auth package verifies', async () => {
    const out = await http({ url: `${up.url}/http-auth?q=1`, digest_auth_user: creds.user, digest_auth_pass: creds.pass }, ctx());
    expect(out).toMatchObject({ ok: true, status: 200, data: 'in' });
    const [first, second] = up.received.slice(-2);
    expect(first.headers.authorization).toBeUndefined();
    expect(second.headers.authorization).toMatch(/^Digest username="Mufasa", .*nc=00000001, cnonce="[0-9a-f]{32}", qop=auth, /);
  });

  it('fails with the 401 when the digest password is wrong', async () => {
    const out = await http({ url: `${up.url}/sha256`, digest_auth_user: creds.user, digest_auth_pass: 'nope' }, ctx());
    expect(out).toMatchObject({ ok: false, status: 401, failure: { kind: 'status', status: 401 } });
  });

  const digestCases: [string, string, Record<string, unknown>][] = [
    ['SHA-256', '/sha256', {}],
    ['the strongest of several challenges', '/prefer', {}],
    ['SHA-256-sess with qop=auth-int over a POST body', '/sess-int', { method: 'POST', body: { a: 1 } }],
    ['an RFC 2069 challenge without qop', '/legacy', {}],
    ['SHA-512-256 with userhash', '/userhash', {}],
  ];
  for (const [name, path, extra] of digestCases) {
    it(`answers ${name}`, async () => {
      const out = await http({ url: `${up.url}${path}?x=y`, digest_auth_user: creds.user, digest_auth_pass: creds.pass, ...extra }, ctx());
      expect(out).toMatchObject({ ok: true, data: { authenticated: true } });
      if (path === '/prefer') expect(up.last().headers.authorization).toContain('algorithm=SHA-256');
    });
  }

  it('matches the RFC 7616 §3.9.1 test vectors', () => {
    const challenge = (alg: string) => pickDigestChallenge(`Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${alg}, `
      + 'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"')!;
    const req = { user: 'Mufasa', pass: 'Circle of Life', method: 'GET', uri: '/dir/index.html', cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ' };
    expect(digestAuthorization(challenge('MD5'), req)).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
    expect(digestAuthorization(challenge('SHA-256'), req)).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
  });

  it('parses several challenges with quoted commas and escapes', () => {
    expect(parseChallenges('Basic realm="a, b", Digest realm="x", nonce="n\\"1", qop="auth,auth-int", Negotiate abc==')).toEqual([
      { scheme: 'Basic', params: { realm: 'a, b' } },
      { scheme: 'Digest', params: { realm: 'x', nonce: 'n"1', qop: 'auth,auth-int' } },
      { scheme: 'Negotiate', params: {}, token68: 'abc==' },
    ]);
    expect(pickDigestChallenge('Digest realm="x", nonce="n", algorithm=UNKNOWN')).toBeUndefined();
  });
});
