// Postgres through pg: a pool per database, each static text prepared once per connection (a named
// statement keyed by the text's hash), values always bound, batches through the simple protocol.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { pgTypes } from './pg-types.ts';
import { withConnection, type Classify } from './connection.ts';
import { dialerSocket } from '../../network/dialer.ts';
import { describeDialled } from './url.ts';
import type { DbSettings, Driver, QueryOptions } from './types.ts';

/** Named statements: one per distinct text; pg keeps the parsed ones per connection. */
const statementName = (text: string): string => `pw_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

export function postgresDriver(db: DbSettings, onConnectFailure: () => void): Driver {
  // pg connects its own socket (`connect(port, host)`, after its parse of the string, where `?host=`
  // and `?port=` win); through the dialer that connect is checked and the destination recorded.
  let dialled: string | undefined;
  const where = () => describeDialled(db.url, dialled);
  const pool = new pg.Pool({
    connectionString: db.url,
    stream: () => dialerSocket((w) => { dialled = w; }),
    max: db.poolSize,
    statement_timeout: db.statementTimeoutMs,
    connectionTimeoutMillis: db.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    types: pgTypes,
  });
  // An idle client whose server went away must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let n = names.get(text);
    if (!n) { n = statementName(text); if (names.size < 10_000) names.set(text, n); }
    return n;
  };

  const acquire = async () => {
    const c = await pool.connect();
    // pg emits 'error' on a checked-out client whose connection dies (as well as failing its query):
    // without a listener that would end the process. The query's own failure says what happened.
    let broken: Error | undefined;
    const onError = (e: Error) => { broken = e; };
    c.on('error', onError);
    const done = (e?: Error) => { c.off('error', onError); c.release(e ?? broken); };
    return { conn: c, release: () => done(), destroy: () => done(new Error('abandoned')) };
  };
  const query = (text: string, params: readonly unknown[], o: QueryOptions) =>
    withConnection(o.label ?? db.label, where, o.signal, acquire, onConnectFailure, classify, async (client) => {
      if (o.multi) {
        await submit(client, text);
        return [];
      }
      // Always the extended protocol: several statements in one text fail (SQLSTATE 42601) unless multi.
      const r = await submit(client, o.prepare === false ? ({ text, values: params as unknown[], queryMode: 'extended' } as pg.QueryConfig) : { name: nameOf(text), text, values: params as unknown[] });
      return r.rows as Record<string, unknown>[];
    });

  return { dialect: 'postgres', query, close: () => pool.end() };
}

/** A query through pg's callback form, promised here. pg's own promise form made every result's rows
 *  survive young-generation GCs under load (~2 MB promoted per scavenge against ~0 with the callback;
 *  docs/decisions.md, Performance, "Database action"). */
function submit(client: pg.PoolClient, q: string | pg.QueryConfig): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(q as pg.QueryConfig, (e: Error | null, r: pg.QueryResult) => (e ? reject(e) : resolve(r)));
  });
}

const classify: Classify = (e) => {
  const err = e as Error & { code?: string };
  const cls = err.code === '57014' ? 'timeout' : err.code?.startsWith('08') ? 'connect' : 'query';
  return { message: `${err.message}${err.code && /^[0-9A-Z]{5}$/.test(err.code) ? ` (SQLSTATE ${err.code})` : ''}`, cls };
};
