// Issue 29, "One outbound dialer", the enumeration: every action kind the registry runs is classified
// here (the test fails for a kind that is not), and every kind that opens a connection is run, in both
// paths, against a real loopback listener with SERVICE__OUTBOUND_DENY=127.0.0.0/8,::1: the listener
// sees nothing and the action fails with a 403 naming the setting. A kind that bypassed the dialer
// would reach the listener.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUILT_KINDS } from '../../runtime/actions/kinds.ts';
import { actionKinds } from '../../runtime/actions/index.ts';
import { runBoth } from '../support/run-both.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { closeDialerAgent } from '../../runtime/network/dialer.ts';
import { connectExternal } from '../../runtime/mqtt/connection.ts';
import { serveBundle } from '../support/bundle.ts';

/** How each kind reaches the network. `dialled`: its connections go through runtime/network/dialer.ts
 *  (proved below); `local`: it opens none of its own. A new kind must be added here. */
const KINDS: Record<string, { dialled: string } | { local: string }> = {
  http: { dialled: 'undici pools with the vetted lookup, IP literals checked before sending' },
  lookup: { dialled: 'its items run the kinds of this table (probed with an http item)' },
  agent: { dialled: 'model url: the http pools; mcp[].url: the dialer\'s fetch' },
  database: { dialled: 'pg through a dialer socket, mysql2 through its stream option' },
  document_operation: { dialled: 'the database kind\'s pools' },
  sftp: { dialled: 'dial()' },
  email: { dialled: 'dial() handed to nodemailer' },
  discover: { dialled: 'kubernetes API through the dialer\'s connector, SERVICE__DNS_SERVERS checked; docker is the gated local socket' },
  mqtt_publish: { dialled: 'the service\'s MQTT connection: an external broker is dialled (runtime/mqtt/connection.ts)' },
  input: { local: 'data only' },
  delay: { local: 'a timer or a suspension' },
  wait_for_callback: { local: 'waits for an inbound callback' },
  state: { local: 'the service\'s own store' },
  only_new: { local: 'the service\'s own store' },
  ws_publish: { local: 'the service\'s own channels' },
  emit_metric: { local: 'the service\'s own /metrics' },
  command: { local: 'runs a program (refused in managed mode); its own network is the program\'s' },
  aws: { local: 'signs a URL locally' },
  google: { local: 'signs a URL locally' },
};

const DENY = '127.0.0.0/8,::1';
let tcp: Server;
let tcpPort = 0;
let tcpConnections = 0;
let udp: UdpSocket;
let udpPort = 0;
let udpMessages = 0;
const saved = { ...process.env };
const ENV = ['SERVICE__OUTBOUND_DENY', 'SERVICE__KUBERNETES_API_URL', 'SERVICE__DNS_SERVERS'];

beforeAll(async () => {
  tcp = createServer((s) => { tcpConnections++; s.destroy(); });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as AddressInfo).port;
  udp = createSocket('udp4');
  udp.on('message', () => { udpMessages++; });
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  udpPort = udp.address().port;
});
afterAll(async () => {
  await new Promise((r) => tcp.close(r));
  await new Promise<void>((r) => udp.close(() => r()));
  await closeDatabasePools();
});
afterEach(async () => {
  for (const k of ENV) { if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k]; }
  await Promise.all([closeHttpPools(), closeDialerAgent()]);
});

const one = (action: string, head = '') => `${head}
interfaces:
  x:
    method: POST
    show_error_detail: true
    actions:
      - name: A
${action.trim().split('\n').map((l) => `        ${l}`).join('\n')}
        output: http
`;

/** Each dialled action kind, as configs that aim at the loopback listener (several for some kinds). */
const at = () => `127.0.0.1:${tcpPort}`;
const PROBES: Record<string, Array<{ what: string; yaml: () => string; env?: () => Record<string, string>; status?: number }>> = {
  http: [{ what: 'url', yaml: () => one(`url: http://${at()}/x`) }],
  lookup: [{ what: 'an http item', status: 200 /* a failed item is null in the lookup's list */, yaml: () => one(`lookup: a|body::ids|\nactions:\n  - name: Get\n    url: http://${at()}/x`) }],
  agent: [
    { what: 'model url', yaml: () => one(`agent: { url: "http://${at()}/v1", model: m, input: hi }`) },
    { what: 'mcp url', yaml: () => one(`agent: { url: "http://${at()}/v1", model: m, input: hi, mcp: [{ url: "http://${at()}/mcp" }] }`) },
  ],
  database: [
    { what: 'postgres', yaml: () => one(`conn_string: postgres://postgres@${at()}/test\nquery: select 1`) },
    { what: 'mariadb', yaml: () => one(`conn_string: mysql://root@${at()}/test\nquery: select 1`) },
  ],
  document_operation: [{ what: 'declared database', yaml: () => one('document_operation: { collection: items, operation: find, filter: {} }', `databases:\n  docs: { url: "postgres://postgres@${at()}/test" }`) }],
  sftp: [{ what: 'host', yaml: () => one(`sftp: { host: 127.0.0.1, port: ${tcpPort}, user: u, password: p, host_key: "SHA256:${'A'.repeat(43)}", operation: list, path: / }`) }],
  email: [{ what: 'smtp', yaml: () => one(`email: { smtp: "smtp://${at()}?ignoreTLS=true", from: a@shop.test, to: b@shop.test, subject: s, text: t }`) }],
  discover: [
    { what: 'kubernetes API', yaml: () => one('discover: { kubernetes: { label_selector: app=x }, cache_ttl_secs: 0 }'), env: () => ({ SERVICE__KUBERNETES_API_URL: `http://${at()}` }) },
    // The listener never answers: the action's timeout ends the run instead of the resolver's (about 3 s).
    { what: 'dns resolver', yaml: () => one('discover: { dns: { name: svc.example.test }, port: 80, cache_ttl_secs: 0 }\ntimeout: 1000'), env: () => ({ SERVICE__DNS_SERVERS: `127.0.0.1:${udpPort}` }) },
  ],
};

describe('every action kind is classified', () => {
  it('the registry\'s kinds and this table agree (a new kind fails here until it is classified)', () => {
    expect(new Set([...BUILT_KINDS, ...Object.keys(actionKinds)])).toEqual(new Set(Object.keys(KINDS)));
  });
  it('every dialled kind has a probe below (or a test of its own connection: mqtt_publish)', () => {
    const dialled = Object.entries(KINDS).filter(([, c]) => 'dialled' in c).map(([k]) => k);
    expect(new Set(dialled)).toEqual(new Set([...Object.keys(PROBES), 'mqtt_publish']));
  });
});

describe('every dialled kind goes through the dialer', () => {
  for (const [kind, probes] of Object.entries(PROBES)) {
    for (const p of probes) {
      it(`${kind} (${p.what}): refused naming SERVICE__OUTBOUND_DENY, the listener never reached`, async () => {
        Object.assign(process.env, { SERVICE__OUTBOUND_DENY: DENY, ...p.env?.() });
        const [tcpBefore, udpBefore] = [tcpConnections, udpMessages];
        const r = await runBoth(p.yaml(), 'x', { body: { ids: [1] } });
        expect(r.response.status).toBe(p.status ?? 403);
        if (p.status === undefined) expect(JSON.stringify(r.response.body)).toMatch(/outbound call refused: .*127\.0\.0\.1 is denied by SERVICE__OUTBOUND_DENY/);
        expect(tcpConnections).toBe(tcpBefore);
        expect(udpMessages).toBe(udpBefore);
      });
    }
  }

  it('mqtt_publish: the external broker (SERVICE__MQTT_URL) is dialled; refused, the connection is never made', async () => {
    process.env.SERVICE__OUTBOUND_DENY = DENY;
    const before = tcpConnections;
    for (const scheme of ['mqtt', 'mqtts', 'ws']) {
      await expect(connectExternal(`${scheme}://${at()}`, 'probe', () => undefined))
        .rejects.toThrow(/^outbound call refused: 127\.0\.0\.1 is denied by SERVICE__OUTBOUND_DENY \(SERVICE__MQTT_URL\)$/);
    }
    expect(tcpConnections).toBe(before);
  });
});

describe('the probes reach the listener without the policy (each probe aims where it claims)', () => {
  for (const [kind, probes] of Object.entries(PROBES)) {
    for (const p of probes) {
      it(`${kind} (${p.what})`, async () => {
        Object.assign(process.env, p.env?.() ?? {});
        const [tcpBefore, udpBefore] = [tcpConnections, udpMessages];
        const r = await runBoth(p.yaml(), 'x', { body: { ids: [1] } });
        expect(r.response.status).not.toBe(403);
        // A datagram's 'message' may come after a run that did not wait for its answer.
        await vi.waitFor(() => expect(tcpConnections + udpMessages).toBeGreaterThan(tcpBefore + udpBefore), { timeout: 5000, interval: 20 });
      }, 30_000);
    }
  }
});

describe('the bundle dials the same way (its undici is a shim: runtime/network/dialer.ts needs Agent and buildConnector)', () => {
  const stops: Array<() => unknown> = [];
  afterAll(() => { for (const s of stops) s(); });
  const config = () => `
interfaces:
  model:
    show_error_detail: true
    actions: [{ name: A, agent: { url: "http://${at()}/v1", model: m, input: hi }, output: http }]
  mcp:
    show_error_detail: true
    actions: [{ name: A, agent: { url: "http://${at()}/v1", model: m, input: hi, mcp: [{ url: "http://${at()}/mcp" }] }, output: http }]
  kubernetes:
    show_error_detail: true
    actions: [{ name: A, discover: { kubernetes: { label_selector: app=x }, cache_ttl_secs: 0 }, output: http }]
`;
  const paths = ['/model', '/mcp', '/kubernetes'];

  it('refused with 403 naming the setting and nothing reaches the listener; allowed, each reaches it', async () => {
    const env = { SERVICE__KUBERNETES_API_URL: `http://${at()}` };
    const denied = await serveBundle('dialled.yaml', config(), { ...env, SERVICE__OUTBOUND_DENY: DENY }, stops);
    const before = tcpConnections;
    for (const path of paths) {
      const r = await fetch(`${denied}${path}`);
      expect(r.status).toBe(403);
      expect(await r.text()).toMatch(/outbound call refused: 127\.0\.0\.1 is denied by SERVICE__OUTBOUND_DENY/);
    }
    expect(tcpConnections).toBe(before);
    const open = await serveBundle('dialled.yaml', config(), env, stops);
    for (const path of paths) {
      const reached = tcpConnections;
      expect((await fetch(`${open}${path}`)).status).not.toBe(403);
      expect(tcpConnections).toBeGreaterThan(reached);
    }
  }, 120_000);
});
