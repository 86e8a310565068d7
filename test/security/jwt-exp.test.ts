// Issue 29 (5): a JWT without `exp` would be accepted forever. It is refused by default, for HS
// secrets and JWKS keys alike; SERVICE__JWT_REQUIRE_EXP=0 is the documented opt-out. Real signed
// JWTs (jose), a real JWKS endpoint and server on loopback, both paths.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { buildApp } from '../../runtime/server/app.ts';
import { inboundSettings, StartupError } from '../../runtime/server/auth/settings.ts';
import { planOf, testEnv } from '../support/plans.ts';

const CONFIG = `
interfaces:
  hello:
    method: GET
    actions:
      - name: A
        input: { hi: true }
        output: http
`;
const HS = 'an-hs256-secret-that-is-long-enough!';
const closers: Array<() => Promise<unknown>> = [];
let jwksUrl = '';
let rsa: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  rsa = await generateKeyPair('RS256');
  const keys = [{ ...(await exportJWK(rsa.publicKey)), kid: 'r1', alg: 'RS256' }];
  const jwks: Server = createServer((_q, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ keys })); });
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  closers.push(() => new Promise((r) => jwks.close(r)));
});
afterAll(async () => { for (const c of closers) await c(); });

const hsKey = new TextEncoder().encode(HS);
async function token(kind: 'hs' | 'jwks', exp: boolean): Promise<string> {
  const jwt = new SignJWT({ sub: 'u1' }).setProtectedHeader(kind === 'hs' ? { alg: 'HS256' } : { alg: 'RS256', kid: 'r1' }).setIssuedAt();
  if (exp) jwt.setExpirationTime('5m');
  return jwt.sign(kind === 'hs' ? hsKey : rsa.privateKey);
}

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  async function serve(vars: Record<string, string>): Promise<string> {
    const app = buildApp([await planOf('jwt.yaml', mode, CONFIG)], { env: testEnv(), inbound: inboundSettings({ SERVICE__JWT_SECRET: HS, SERVICE__JWKS_URL: jwksUrl, ...vars }, testEnv()) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  const status = async (url: string, t: string) => (await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${t}` } })).status;

  it.each(['hs', 'jwks'] as const)('%s: without exp refused by default, with exp accepted', async (kind) => {
    const url = await serve({});
    expect(await status(url, await token(kind, false))).toBe(401);
    expect(await status(url, await token(kind, true))).toBe(200);
  });

  it.each(['hs', 'jwks'] as const)('%s: SERVICE__JWT_REQUIRE_EXP=0 accepts a JWT without exp', async (kind) => {
    const url = await serve({ SERVICE__JWT_REQUIRE_EXP: '0' });
    expect(await status(url, await token(kind, false))).toBe(200);
    expect(await status(url, await token(kind, true))).toBe(200);
  });
});

it('SERVICE__JWT_REQUIRE_EXP takes 1/true/0/false; anything else stops the start naming it', () => {
  expect(inboundSettings({ SERVICE__JWT_REQUIRE_EXP: 'TRUE' }, testEnv()).requireExp).toBe(true);
  expect(inboundSettings({}, testEnv()).requireExp).toBe(true);
  expect(inboundSettings({ SERVICE__JWT_REQUIRE_EXP: 'false' }, testEnv()).requireExp).toBe(false);
  expect(() => inboundSettings({ SERVICE__JWT_REQUIRE_EXP: 'no' }, testEnv())).toThrow(StartupError);
  expect(() => inboundSettings({ SERVICE__JWT_REQUIRE_EXP: 'no' }, testEnv())).toThrow(/SERVICE__JWT_REQUIRE_EXP=no/);
});
