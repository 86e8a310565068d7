// GET /_ap/runs's query string read into a store query, and its opaque cursor. Every value is the
// caller's: anything malformed (an unknown parameter, a repeated one, a bad date, a cursor this
// server did not make) is a 400 saying what is expected, never a store error.
import type { RunState, Trigger } from '../run-state.ts';
import type { RunEntry, RunQuery } from '../store-types.ts';

export const DEFAULT_RUNS_LIMIT = 50;
export const MAX_RUNS_LIMIT = 1000;

const STATUSES: ReadonlySet<string> = new Set<RunState['status']>(['running', 'suspended', 'succeeded', 'failed', 'cancelled']);
const TRIGGERS: ReadonlySet<string> = new Set<Trigger>(['http', 'schedule', 'mqtt', 'ws', 'mcp', 'agent', 'cli', 'test']);
const PARAMS = new Set(['interface', 'config', 'status', 'trigger', 'since', 'until', 'limit', 'cursor']);

/** A config, interface or run id as a caller may name it: printable, bounded. */
const NAME = /^[\x21-\x7e\u00a0-\uffff]{1,200}$/u;
export const validRunId = (id: string): boolean => NAME.test(id);
export const INVALID_RUN_ID = 'invalid run id: expected 1 to 200 printable characters';

export class QueryError extends Error {}

/** The store query of a request's query string (parsed by fastify: a repeated key is an array). */
export function runsQuery(raw: Record<string, unknown>): RunQuery {
  const q: RunQuery = { limit: DEFAULT_RUNS_LIMIT };
  for (const [k, v] of Object.entries(raw)) {
    if (!PARAMS.has(k)) throw new QueryError(`unknown parameter "${k.slice(0, 40)}": expected ${[...PARAMS].join(', ')}`);
    if (typeof v !== 'string') throw new QueryError(`parameter "${k}" is given more than once`);
    if (v === '') continue; // an empty filter (a form's blank field) filters nothing
    switch (k) {
      case 'interface': case 'config':
        if (!NAME.test(v)) throw new QueryError(`${k} must be 1 to 200 printable characters`);
        if (k === 'config') q.config = v; else q.iface = v;
        break;
      case 'status':
        if (!STATUSES.has(v)) throw new QueryError(`status must be one of ${[...STATUSES].join(', ')}`);
        q.status = v as RunState['status'];
        break;
      case 'trigger':
        if (!TRIGGERS.has(v)) throw new QueryError(`trigger must be one of ${[...TRIGGERS].join(', ')}`);
        q.trigger = v as Trigger;
        break;
      case 'since': case 'until':
        q[k] = instant(k, v);
        break;
      case 'limit': {
        const n = Number(v);
        if (!/^[0-9]{1,4}$/.test(v) || n < 1 || n > MAX_RUNS_LIMIT) throw new QueryError(`limit must be an integer from 1 to ${MAX_RUNS_LIMIT}`);
        q.limit = n;
        break;
      }
      case 'cursor':
        q.before = decodeCursor(v);
        break;
    }
  }
  return q;
}

/** An ISO 8601 date-time (a date alone is its midnight UTC), as the stores compare it. */
function instant(k: string, v: string): string {
  const t = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : NaN;
  if (!Number.isFinite(t)) throw new QueryError(`${k} must be an ISO 8601 date-time such as 2026-12-06T20:00:00Z`);
  return new Date(t).toISOString();
}

/** The cursor after `last`: opaque to callers (base64url of the entry's start and id). */
export function encodeCursor(last: Pick<RunEntry, 'startedAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([last.startedAt, last.id])).toString('base64url');
}

function decodeCursor(v: string): { startedAt: string; id: string } {
  const bad = () => new QueryError('cursor is not one this server gave: pass next_cursor from a previous page unchanged');
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(v)) throw bad();
  let parsed: unknown;
  try { parsed = JSON.parse(Buffer.from(v, 'base64url').toString('utf8')); } catch { throw bad(); }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw bad();
  const [startedAt, id] = parsed as unknown[];
  if (typeof startedAt !== 'string' || typeof id !== 'string' || !validRunId(id)) throw bad();
  const t = Date.parse(startedAt);
  if (!Number.isFinite(t) || new Date(t).toISOString() !== startedAt) throw bad();
  return { startedAt, id };
}
