// One JSON GET against a discovery backend's API (the Kubernetes API server, the Docker Engine on
// its unix socket) through undici: a connection of its own closed afterwards (answers are cached,
// so there is no pool to keep), every wait bounded, the body bounded, failures classified.
import { Agent, type Agent as AgentType } from 'undici';
import { send } from '../http/send.ts';
import { classify, describe, SendError } from '../http/transport-error.ts';
import { DiscoverError } from './error.ts';

/** Each API call gets this long, whatever the action's own timeout. */
export const API_TIMEOUT_MS = 10_000;
/** Largest API answer read (a pod list of a few thousand pods fits). */
export const MAX_API_BYTES = 32 * 1024 * 1024;

export interface ApiCall {
  /** Says which backend, for messages: `kubernetes API https://…`. */
  what: string;
  origin: string;
  path: string;
  headers?: Record<string, string>;
  connect: AgentType.Options['connect'];
  signal?: AbortSignal;
}

export async function getJson(c: ApiCall): Promise<unknown> {
  const agent = new Agent({ connect: { timeout: API_TIMEOUT_MS, ...c.connect }, headersTimeout: API_TIMEOUT_MS, bodyTimeout: API_TIMEOUT_MS });
  const timeout = AbortSignal.timeout(API_TIMEOUT_MS);
  const signal = c.signal ? AbortSignal.any([c.signal, timeout]) : timeout;
  try {
    const res = await send(agent, { origin: c.origin, method: 'GET', path: c.path, headers: { accept: 'application/json', ...c.headers } }, signal, MAX_API_BYTES);
    const text = res.body.toString('utf8');
    if (res.status < 200 || res.status > 299) throw new DiscoverError(`${c.what} answered ${res.status}${apiMessage(text)}`, 'backend');
    try { return JSON.parse(text); } catch { throw new DiscoverError(`${c.what} answered with something other than JSON`, 'backend'); }
  } catch (e) {
    if (!(e instanceof SendError)) throw e;
    const cls = timeout.aborted ? 'timeout' : classify(e);
    throw new DiscoverError(`${c.what}: ${timeout.aborted ? `no answer within ${API_TIMEOUT_MS} ms` : describe(e.cause)}`, cls === 'other' ? 'backend' : cls);
  } finally {
    agent.destroy().catch(() => {});
  }
}

/** The `message` of a Kubernetes Status or Docker error body, when there is one. */
function apiMessage(text: string): string {
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    return typeof m === 'string' && m ? `: ${m.slice(0, 500)}` : '';
  } catch {
    return '';
  }
}
