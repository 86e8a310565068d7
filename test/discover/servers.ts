// Real servers for the discover tests, each answering in its published wire shape: a UDP DNS server
// (dns-packet) with A, AAAA and SRV records, an HTTP server speaking the Kubernetes API (PodList,
// bearer token checked, label and field selectors applied as the API server does), and an HTTP
// server on a unix socket speaking the Docker Engine API (GET [/v1.xx]/containers/json?filters=...).
import dgram from 'node:dgram';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as packet from 'dns-packet';

export interface DnsRecords {
  A?: string[];
  AAAA?: string[];
  SRV?: Array<{ priority: number; weight: number; port: number; target: string }>;
}

/** A DNS server on 127.0.0.1 answering from `records` (by lower-case name); unknown names get NXDOMAIN. */
export async function dnsServer(records: Record<string, DnsRecords>) {
  const sock = dgram.createSocket('udp4');
  const seen: string[] = [];
  sock.on('message', (msg, from) => {
    const q = packet.decode(msg);
    const question = q.questions?.[0];
    if (!question) return;
    seen.push(`${question.type} ${question.name}`);
    const rec = records[question.name.toLowerCase()];
    const answers: packet.Answer[] = [];
    if (question.type === 'A') for (const ip of rec?.A ?? []) answers.push({ type: 'A', name: question.name, ttl: 5, data: ip });
    if (question.type === 'AAAA') for (const ip of rec?.AAAA ?? []) answers.push({ type: 'AAAA', name: question.name, ttl: 5, data: ip });
    if (question.type === 'SRV') for (const s of rec?.SRV ?? []) answers.push({ type: 'SRV', name: question.name, ttl: 5, data: s });
    const NXDOMAIN = 3;
    const out = packet.encode({
      id: q.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | packet.AUTHORITATIVE_ANSWER | (rec ? 0 : NXDOMAIN),
      questions: q.questions,
      answers,
    });
    sock.send(out, from.port, from.address);
  });
  await new Promise<void>((resolve) => sock.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${sock.address().port}`, seen, close: () => new Promise<void>((r) => sock.close(() => r())) };
}

export interface PodSpec {
  name: string;
  ip?: string;
  namespace?: string;
  labels?: Record<string, string>;
  ready?: boolean;
  node?: string;
  phase?: string;
  terminating?: boolean;
  containers?: Array<{ name: string; image: string; ports?: Array<{ name?: string; containerPort: number }> }>;
}

/** A pod as the API serves it (core/v1 Pod, the fields discovery reads and a few around them). */
export function pod(p: PodSpec) {
  const ns = p.namespace ?? 'shop';
  return {
    metadata: {
      name: p.name,
      namespace: ns,
      uid: `uid-${p.name}`,
      resourceVersion: '1',
      creationTimestamp: '2026-11-26T10:00:00Z',
      labels: p.labels ?? {},
      ...(p.terminating ? { deletionTimestamp: '2026-11-26T10:05:00Z' } : {}),
    },
    spec: {
      nodeName: p.node ?? 'node-a',
      containers: (p.containers ?? [{ name: 'app', image: 'registry.local/api:1.2', ports: [{ name: 'http', containerPort: 8080 }] }]).map((c) => ({
        ...c,
        ports: (c.ports ?? []).map((x) => ({ ...x, protocol: 'TCP' })),
      })),
    },
    status: {
      phase: p.phase ?? 'Running',
      ...(p.ip ? { podIP: p.ip, podIPs: [{ ip: p.ip }] } : {}),
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: p.ready === false ? 'False' : 'True' },
        { type: 'ContainersReady', status: p.ready === false ? 'False' : 'True' },
      ],
    },
  };
}

type Pod = ReturnType<typeof pod>;

/** `k=v`, `k==v`, `k!=v` and bare `k` terms, comma-separated (the equality-based selector grammar). */
function selects(selector: string | null, get: (k: string) => string | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const m = /^\s*([^!=\s]+)\s*(==|=|!=)?\s*([^\s]*)\s*$/.exec(term);
    if (!m) return false;
    const v = get(m[1]!);
    if (!m[2]) return v !== undefined;
    return m[2] === '!=' ? v !== m[3] : v === m[3];
  });
}

const podField = (p: Pod, k: string): string | undefined =>
  ({ 'metadata.name': p.metadata.name, 'metadata.namespace': p.metadata.namespace, 'spec.nodeName': p.spec.nodeName, 'status.phase': p.status.phase, 'status.podIP': p.status.podIP })[k];

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function listen(server: Server, where: number | string): Promise<void> {
  await new Promise<void>((resolve) => (typeof where === 'string' ? server.listen(where, resolve) : server.listen(where, '127.0.0.1', resolve)));
}

/** The Kubernetes API server's pod list endpoint. `token` is the bearer token it accepts; with `tls`
 *  it serves https, as API servers do. */
export async function kubernetesApi(token: string, pods: Pod[], tls?: { key: string; cert: string }) {
  const requests: string[] = [];
  const traceparents: Array<string | undefined> = [];
  const handler: RequestListener = (req: IncomingMessage, res) => {
    requests.push(req.url!);
    traceparents.push(req.headers.traceparent as string | undefined);
    if (req.headers.authorization !== `Bearer ${token}`) {
      return json(res, 401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    const url = new URL(req.url!, 'http://x');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname);
    if (!m) return json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
    const ns = decodeURIComponent(m[1]!);
    const items = pods.filter((p) => p.metadata.namespace === ns && selects(url.searchParams.get('labelSelector'), (k) => p.metadata.labels[k]) && selects(url.searchParams.get('fieldSelector'), (k) => podField(p, k)));
    json(res, 200, { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '12345' }, items });
  };
  const server = tls ? createTlsServer(tls, handler) : createServer(handler);
  await listen(server, 0);
  const addr = server.address() as { port: number };
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${addr.port}`, requests, traceparents, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

export interface ContainerSpec {
  name: string;
  image?: string;
  labels?: Record<string, string>;
  networks?: Record<string, { ip?: string; ipv6?: string }>;
  ports?: number[];
  status?: string;
}

/** A container as GET /containers/json lists it (ContainerSummary). */
export function container(c: ContainerSpec) {
  return {
    Id: `${c.name.replace(/\W/g, '')}0123456789abcdef`.padEnd(64, '0'),
    Names: [`/${c.name}`],
    Image: c.image ?? 'nginx:1.27',
    ImageID: 'sha256:0000',
    Command: 'nginx -g daemon off;',
    Created: 1764150000,
    Ports: (c.ports ?? [80]).map((p) => ({ PrivatePort: p, Type: 'tcp' })),
    Labels: c.labels ?? {},
    State: 'running',
    Status: c.status ?? 'Up 2 hours',
    HostConfig: { NetworkMode: 'bridge' },
    NetworkSettings: {
      Networks: Object.fromEntries(Object.entries(c.networks ?? { bridge: { ip: '172.17.0.2' } }).map(([n, x]) => [n, {
        NetworkID: `net-${n}`, EndpointID: 'ep', Gateway: '', IPAddress: x.ip ?? '', IPPrefixLen: 16, IPv6Gateway: '', GlobalIPv6Address: x.ipv6 ?? '', GlobalIPv6PrefixLen: 0, MacAddress: '02:42:ac:11:00:02',
      }])),
    },
    Mounts: [],
  };
}

type Container = ReturnType<typeof container>;

/** The Docker Engine API's container list on a unix socket in a fresh temp folder. */
export async function dockerApi(containers: Container[]) {
  const requests: string[] = [];
  const traceparents: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    requests.push(req.url!);
    traceparents.push(req.headers.traceparent as string | undefined);
    const url = new URL(req.url!, 'http://x');
    if (!/^(\/v1\.\d+)?\/containers\/json$/.test(url.pathname)) return json(res, 404, { message: 'page not found' });
    let filters: Record<string, string[]> = {};
    try { filters = JSON.parse(url.searchParams.get('filters') ?? '{}'); } catch { return json(res, 400, { message: 'invalid filter' }); }
    const items = containers.filter((c) =>
      (filters.label ?? []).every((l) => { const [k, ...v] = l.split('='); return v.length ? c.Labels[k!] === v.join('=') : k! in c.Labels; }) &&
      (filters.status ?? ['running']).includes(c.State));
    json(res, 200, items);
  });
  const socket = join(mkdtempSync(join(tmpdir(), 'pw-docker-')), 'docker.sock');
  await listen(server, socket);
  return { socket, requests, traceparents, close: () => new Promise<void>((r) => server.close(() => r())) };
}
