// One load round against one server with autocannon.
import autocannon from 'autocannon';
import type { BenchRequest } from './scenario.ts';

export interface Round { rps: number; requests: number; errors: number; non2xx: number; p99Ms: number; /** The server's CPU per request (µs): robust when the machine is shared. */ cpuUsPerReq?: number }

export async function loadRound(url: string, r: BenchRequest, o: { connections: number; seconds: number }): Promise<Round> {
  const res = await autocannon({
    url: url + r.path, method: r.method, headers: r.headers, body: r.body,
    connections: o.connections, duration: o.seconds,
  });
  return { rps: res.requests.average, requests: res.requests.total, errors: res.errors + res.timeouts, non2xx: res.non2xx, p99Ms: res.latency.p99 };
}

/** The answer a server gives to the scenario's request: status, content type and body bytes. */
export async function answerOf(url: string, r: BenchRequest): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url + r.path, { method: r.method, headers: r.headers, body: r.body });
  return { status: res.status, type: (res.headers.get('content-type') ?? '').split(';')[0]!, body: await res.text() };
}
