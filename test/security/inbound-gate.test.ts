// Issue 29, part 1: one inbound gate for every surface the process listens on. The enumeration test
// builds the service with every surface on, lists what fastify registered, every upgrade route and
// every TCP listener the service opened (from the server and the process, not a hand-written list),
// and requires each to refuse a request without a credential once credentials are configured (but
// the documented open ones) and a denied address always. Both paths, real sockets on loopback.
import { Server as NetServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { MQTT_WS_PATH } from '../../runtime/mqtt/broker.ts';
import { upgradeRoutes } from '../../runtime/realtime/upgrade.ts';
import { wsPath } from '../../runtime/realtime/ws-server.ts';
import { ADMIN, KEY, everySurface, mcp, mqttConnect, registeredRoutes, samplePath, serveAll, upgrade, type Served } from './gate-support.ts';

const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const s of stops.reverse()) await s(); });

const DENY_LOCAL = 'network:\n  deny_ips: ["127.0.0.1", "::1"]';
const inbound = { apiKeys: [KEY], adminToken: ADMIN };

/** Open by design, with the reason (docs/security-gate rules: runtime/network/inbound-gate.ts RULES). */
const OPEN_ROUTES: Record<string, string> = {
  '/_ap/health': 'the load balancers\' probe: answers {"ok":true} and nothing else, to any address',
  '/_ap/ready': 'the readiness probe: answers {"ready":true} or 503 with fixed words (store, broker, draining), nothing else, to any address',
};
/** Routes whose credential is their own (the gate still applies the network policy). */
const OWN_CREDENTIAL: Record<string, { status: number; why: string }> = {
  '/_ap/resume/:token': { status: 404, why: 'the resume token is the only credential of a waiting run: an unknown one is refused with 404' },
};

/** The inspector page's static files (network policy only): they hold no data, every call the page
 *  makes for data is a management route below, with the admin token (runtime/server/inspector/routes.ts). */
const NO_DATA: Record<string, string> = {
  '/_ap/ui': 'the inspector page\'s HTML', '/_ap/ui/app.js': 'its script', '/_ap/ui/app.css': 'its style sheet',
};

/** The management routes: SERVICE__ADMIN_TOKEN only, so an API key is refused too (401). */
const ADMIN_ONLY = (method: string, route: string) => route.startsWith('/_ap/captures') || (route.startsWith('/_ap/runs') && !(method === 'GET' && route === '/_ap/runs/:id'));

const listening = () => new Set((process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h): h is NetServer => h instanceof NetServer && h.listening));

/** Serves every surface and returns what the service opened: its HTTP server and every other TCP listener. */
async function serveEverything(mode: 'compiled' | 'interpreted', network: string): Promise<Served & { tcp: NetServer[] }> {
  const before = listening();
  const s = await serveAll(mode, everySurface(network), { inbound }, stops);
  const tcp = [...listening()].filter((h) => !before.has(h) && h !== s.app.server);
  return { ...s, tcp };
}

/** The upgrade paths the plans ask for; every upgrade route the server registered must serve one. */
function upgradePaths(s: Served): string[] {
  const paths = [...s.plans.flatMap((p) => p.interfaces.filter((i) => i.ws !== undefined).map((i) => wsPath('local', 'dev', i.name))), MQTT_WS_PATH];
  for (const r of upgradeRoutes(s.app.server)) expect(paths.some((p) => r.match(p)), `upgrade route "${r.name}" has no path in this test: add how to reach it`).toBe(true);
  // One upgrade listener: the router that puts the gate first (a second would bypass it).
  expect(s.app.server.listeners('upgrade')).toHaveLength(1);
  return paths;
}

async function status(url: string, method: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { method, headers });
  await res.arrayBuffer();
  return res.status;
}

describe.each(['compiled', 'interpreted'] as const)('every surface (%s)', (mode) => {
  it('once credentials are configured, every route, upgrade and listener refuses a client without one (but the documented open ones)', async () => {
    const s = await serveEverything(mode, '');
    const routes = registeredRoutes(s.app);
    // The surfaces asked for are there (so the enumeration is not vacuous).
    const urls = new Set(routes.map(([, u]) => u));
    for (const u of ['/hello', '/metrics', '/_ap/openapi.json', '/_ap/runs', '/_ap/runs/:id', '/_ap/runs/:id/cancel', '/_ap/runs/:id/rerun', '/_ap/resume/:token', '/_ap/captures', '/local/dev/mcp', ...Object.keys(NO_DATA)]) expect(urls).toContain(u);
    expect(s.tcp.length).toBeGreaterThan(0);
    const publicRoutes = new Set(s.plans.flatMap((p) => p.interfaces.filter((i) => i.public && i.routed).map((i) => i.route)));
    for (const [method, route] of routes) {
      const got = await status(s.http + samplePath(route), method);
      const what = `${method} ${route}`;
      if (OPEN_ROUTES[route] || NO_DATA[route] || publicRoutes.has(route)) expect(got, what).toBeLessThan(400);
      else if (OWN_CREDENTIAL[route]) expect(got, what).toBe(OWN_CREDENTIAL[route]!.status);
      else expect(got, what).toBe(401);
      // With the credential, the gate lets it through (a route may still refuse for its own reasons).
      if (!OWN_CREDENTIAL[route] && !ADMIN_ONLY(method, route)) expect(await status(s.http + samplePath(route), method, { 'x-api-key': KEY }), `${what} with a key`).not.toBe(401);
    }
    for (const path of upgradePaths(s)) {
      if (path === MQTT_WS_PATH) {
        // MQTT over WebSocket: the credential is the CONNECT's password.
        expect(await mqttConnect(`${s.ws}${path}`)).toMatch(/^refused|^closed$/);
        expect(await mqttConnect(`${s.ws}${path}`, { username: 'svc', password: KEY })).toBe('connected');
      } else {
        expect(await upgrade(s.ws + path), path).toBe(401);
        expect(await upgrade(s.ws + path, { 'x-api-key': KEY }), path).toBe(101);
      }
    }
    // Every other TCP listener the service opened (the embedded broker's port) speaks MQTT and
    // takes the same credential as its password.
    for (const l of s.tcp) {
      const port = (l.address() as { port: number }).port;
      expect(await mqttConnect(`mqtt://127.0.0.1:${port}`), `TCP listener on ${port}`).toMatch(/^refused|^closed$/);
      expect(await mqttConnect(`mqtt://127.0.0.1:${port}`, { username: 'svc', password: 'not-the-key-at-all' })).toMatch(/^refused|^closed$/);
      expect(await mqttConnect(`mqtt://127.0.0.1:${port}`, { username: 'svc', password: KEY })).toBe('connected');
    }
  }, 60_000);

  it('a config-wide deny_ips of the client refuses it on every route, upgrade and listener, with or without a credential', async () => {
    const s = await serveEverything(mode, DENY_LOCAL);
    for (const [method, route] of registeredRoutes(s.app)) {
      const what = `${method} ${route}`;
      if (OPEN_ROUTES[route]) { expect(await status(s.http + samplePath(route), method), what).toBe(200); continue; }
      expect(await status(s.http + samplePath(route), method), what).toBe(403);
      expect(await status(s.http + samplePath(route), method, { 'x-api-key': KEY, authorization: `Bearer ${ADMIN}` }), what).toBe(403);
    }
    // A path nothing serves: refused, not told it is not there.
    expect(await status(`${s.http}/nothing/here`, 'GET')).toBe(403);
    expect(await upgrade(`${s.ws}/ws/local/dev/nothing`)).toBe(403);
    for (const path of upgradePaths(s)) expect(await upgrade(`${s.ws}${path}?access_token=${KEY}`), path).toBe(403);
    for (const l of s.tcp) {
      const port = (l.address() as { port: number }).port;
      expect(await mqttConnect(`mqtt://127.0.0.1:${port}`, { username: 'svc', password: KEY }), `TCP listener on ${port}`).toMatch(/^refused|^closed$/);
    }
  }, 60_000);
});
