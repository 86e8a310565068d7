// Issue 9, finding 2: only HTTP interfaces answer HTTP, and once any inbound credential is configured
// every interface requires one (API key or JWT: HS secret, or RS/ES through a JWKS URL) unless it is
// `public: true`. Both paths, over a real socket.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { buildApp } from '../../runtime/server/app.ts';
import { inboundSettings, StartupError, type InboundSettings } from '../../runtime/server/auth/settings.ts';
import { planOf, testEnv } from '../support/plans.ts';
import type { Plan } from '../../runtime/plan.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { systemClock } from '../../runtime/services.ts';

const CONFIG = `
on_error:
  interface: alert
interfaces:
  hello:
    method: GET
    actions:
      - name: A
        input: { hi: true }
        output: http
  open_data:
    method: GET
    public: true
    actions:
      - name: A
        input: { open: true }
        output: http
  alert:
    actions:
      - name: A
        input: a|body|
  nightly:
    schedule: { cron: "0 3 * * *", enabled: true }
    actions:
      - name: A
        input: ran
  nightly_too:
    method: POST
    schedule: { cron: "0 4 * * *", enabled: true }
    actions:
      - name: A
        input: { manual: true }
        output: http
  socket:
    ws: "on"
    actions:
      - name: A
        input: frame
  tool:
    output: cli
    actions:
      - name: A
        input: cli
`;

const KEY = 'k-0123456789abcdef';
const HS = 'an-hs256-secret-that-is-long-enough!';
const apps: Array<{ close(): Promise<unknown> }> = [];
let jwks: Server;
let jwksUrl = '';
let rsa: Awaited<ReturnType<typeof generateKeyPair>>;
let ec: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  rsa = await generateKeyPair('RS256');
  ec = await generateKeyPair('ES256');
  const keys = [{ ...(await exportJWK(rsa.publicKey)), kid: 'r1', alg: 'RS256' }, { ...(await exportJWK(ec.publicKey)), kid: 'e1', alg: 'ES256' }];
  jwks = createServer((_q, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ keys })); });
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
});
afterAll(async () => { for (const a of apps) await a.close(); await new Promise((r) => jwks.close(r)); });

async function serve(plan: Plan, inbound?: InboundSettings) {
  const app = buildApp([plan], { env: testEnv(), ...(inbound ? { inbound } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const sign = (claims: Record<string, unknown>, alg: string, key: Parameters<SignJWT['sign']>[0], kid?: string) =>
  new SignJWT(claims).setProtectedHeader({ alg, ...(kid ? { kid } : {}) }).setIssuedAt().setIssuer('https://idp.test').setAudience('pipewright').setExpirationTime('5m').sign(key);

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let plan: Plan;
  beforeAll(async () => { plan = await planOf('inbound.yaml', mode, CONFIG); });

  it('routes only HTTP interfaces: schedule, on_error, ws and cli interfaces are not endpoints unless they declare method', async () => {
    const url = await serve(plan);
    expect((await fetch(`${url}/hello`)).status).toBe(200);
    for (const [method, path] of [['POST', '/alert'], ['GET', '/alert'], ['GET', '/nightly'], ['POST', '/socket'], ['GET', '/tool']]) {
      expect((await fetch(url + path, { method })).status, path).toBe(404);
    }
    expect(await (await fetch(`${url}/nightly_too`, { method: 'POST' })).json()).toEqual({ manual: true });
  });

  it('with no credential configured, interfaces stay open', async () => {
    const url = await serve(plan, { apiKeys: [] });
    expect((await fetch(`${url}/hello`)).status).toBe(200);
  });

  it('an API key is required once configured, by bearer or X-API-Key; public interfaces stay open', async () => {
    const url = await serve(plan, { apiKeys: [KEY] });
    const none = await fetch(`${url}/hello`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(`${url}/hello`, { headers: { authorization: 'Bearer wrong-key-0123456789' } })).status).toBe(401);
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    expect((await fetch(`${url}/hello`, { headers: { 'x-api-key': KEY } })).status).toBe(200);
    expect((await fetch(`${url}/open_data`)).status).toBe(200);
  });

  it('HS256 JWTs with the configured secret, issuer and audience', async () => {
    const url = await serve(plan, { apiKeys: [], jwtSecret: HS, issuer: 'https://idp.test', audience: 'pipewright' });
    const secret = new TextEncoder().encode(HS);
    const good = await sign({ sub: 'u1' }, 'HS256', secret);
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${good}` } })).status).toBe(200);
    const wrongKey = await sign({ sub: 'u1' }, 'HS256', new TextEncoder().encode(`${HS}x`));
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${wrongKey}` } })).status).toBe(401);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://idp.test').setAudience('pipewright').setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(secret);
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${expired}` } })).status).toBe(401);
    const otherAud = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://idp.test').setAudience('someone-else').sign(secret);
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${otherAud}` } })).status).toBe(401);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"iss":"https://idp.test","aud":"pipewright"}').toString('base64url')}.`;
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${none}` } })).status).toBe(401);
    // HS384 and HS512 with the same secret (the secret is imported once per algorithm), each twice,
    // and a token signed with another secret after them.
    for (const alg of ['HS384', 'HS512', 'HS384', 'HS512', 'HS256']) {
      expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${await sign({ sub: 'u2' }, alg, secret)}` } })).status).toBe(200);
      expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${await sign({ sub: 'u2' }, alg, new TextEncoder().encode(`${HS}y`))}` } })).status).toBe(401);
    }
  });

  it('RS256 and ES256 JWTs through the JWKS URL', async () => {
    const url = await serve(plan, { apiKeys: [], jwksUrl, issuer: 'https://idp.test', audience: 'pipewright' });
    for (const t of [await sign({}, 'RS256', rsa.privateKey, 'r1'), await sign({}, 'ES256', ec.privateKey, 'e1')]) {
      expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${t}` } })).status).toBe(200);
    }
    const stranger = await generateKeyPair('ES256');
    const forged = await sign({}, 'ES256', stranger.privateKey, 'e1');
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
  });
});

describe('the management surface', () => {
  it('run status takes an interface credential or the admin token once credentials are configured', async () => {
    const app = buildApp([await planOf('inbound.yaml', 'interpreted', CONFIG)], {
      env: testEnv(), services: { clock: systemClock, store: new MemoryStore() }, inbound: { apiKeys: [KEY], adminToken: 'admin-0123456789abcdef' },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/_ap/runs/00000000-0000-4000-8000-000000000001`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer admin-0123456789abcdef' } })).status).toBe(404);
    expect((await fetch(url, { headers: { 'x-api-key': KEY } })).status).toBe(404);
    expect((await fetch(url.replace('/runs/', '/captures/'), { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(401);
  });
});

describe('settings', () => {
  const env = testEnv({}, { KEY_A: KEY, SHORT: 'abc' });
  it('SERVICE__API_KEYS names secrets; a missing or short one is refused', () => {
    expect(inboundSettings({ SERVICE__API_KEYS: 'KEY_A' }, env).apiKeys).toEqual([KEY]);
    expect(() => inboundSettings({ SERVICE__API_KEYS: 'KEY_A,NOPE' }, env)).toThrow('SERVICE__API_KEYS names NOPE, but SERVICE__SECRET__NOPE is not set');
    expect(() => inboundSettings({ SERVICE__API_KEYS: 'SHORT' }, env)).toThrow(StartupError);
  });
  it('a too-short admin token or JWT secret is refused at start', () => {
    expect(() => inboundSettings({ SERVICE__ADMIN_TOKEN: 'x' }, env)).toThrow('SERVICE__ADMIN_TOKEN is 1 characters; at least 16 are required');
    expect(() => inboundSettings({ SERVICE__JWT_SECRET: 'short' }, env)).toThrow(/SERVICE__JWT_SECRET is 5 characters/);
    expect(inboundSettings({ SERVICE__ADMIN_TOKEN: 'a'.repeat(16) }, env).adminToken).toBe('a'.repeat(16));
  });
});
