// MariaDB/MySQL through mysql2: a pool per database, every statement through `execute` (prepared
// server-side once per connection, values bound), results mapped as Postgres's are (docs: "Types").
import type { FieldPacket, Pool } from 'mysql2/promise';
import { withConnection, type Classify } from './connection.ts';
import { dialOrFail } from '../../network/dialer.ts';
import { describeUrl } from './url.ts';
import { DbError, type DbSettings, type Driver, type QueryOptions } from './types.ts';

const TIMESTAMP = 7;
const DATETIME = 12;

export function mysqlDriver(db: DbSettings, onConnectFailure: () => void): Driver {
  const u = new URL(db.url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port ? Number(u.port) : 3306;
  const where = () => describeUrl(db.url);
  const secs = db.statementTimeoutMs / 1000;
  // Per connection: UTC for TIMESTAMP text, and the statement timeout (MariaDB, else MySQL's SELECT-only one).
  const onConnection = (pool: Pool) => pool.pool.on('connection', (c) => {
    c.query(`SET time_zone = '+00:00'`);
    c.query(`SET SESSION max_statement_time = ${secs}`, (e: unknown) => {
      if (e) c.query(`SET SESSION max_execution_time = ${Math.round(secs * 1000)}`, () => {});
    });
  });
  // mysql2 is loaded on first use: a service without MySQL databases does not pay its start-up time.
  const ready: Promise<Pool> = import('mysql2/promise').then(({ default: mysql }) => mysql.createPool({
    host,
    port,
    // Every connection through the outbound dialer (mysql2 would open its own socket); a refusal
    // fails the socket, which mysql2 reports as the connect failure.
    stream: () => dialOrFail(host, port).setNoDelay(true),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
    connectionLimit: db.poolSize,
    connectTimeout: db.connectTimeoutMs,
    maxPreparedStatements: 256,
    // Exact: BIGINT a number while exact else text, DECIMAL text, dates as the server's text.
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
    timezone: 'Z',
  })).then((pool) => {
    onConnection(pool);
    return pool;
  });
  const acquire = async () => {
    const c = await (await ready).getConnection();
    return { conn: c, release: () => c.release(), destroy: () => c.destroy() };
  };
  const query = async (text: string, params: readonly unknown[], o: QueryOptions) => {
    if (o.multi) throw new DbError(`database "${o.label ?? db.label}": multi: true is Postgres only; run the statements as separate actions`, 'query');
    return withConnection(o.label ?? db.label, where, o.signal, acquire, onConnectFailure, classify, async (conn) => {
      const [rows, fields] = await conn.execute(text, params.map(bindable) as never);
      return Array.isArray(rows) ? mapRows(rows as Record<string, unknown>[], fields) : [];
    });
  };

  return { dialect: 'mysql', query, close: async () => (await ready).end() };
}

const classify: Classify = (e) => {
  const err = e as Error & { code?: string; sqlState?: string; errno?: number };
  const cls = err.errno === 1969 || err.errno === 3024 ? 'timeout' : err.code === 'PROTOCOL_CONNECTION_LOST' ? 'connect' : 'query';
  return { message: `${err.message}${err.sqlState ? ` (SQLSTATE ${err.sqlState})` : ''}`, cls };
};

/** mysql2 binds JSON values natively except objects and arrays, which are sent as their JSON text. */
const bindable = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v === undefined ? null : v);

function mapRows(rows: Record<string, unknown>[], fields: FieldPacket[] | undefined): Record<string, unknown>[] {
  const stamps = new Map<string, boolean>();
  for (const f of fields ?? []) {
    if (f.columnType === DATETIME) stamps.set(f.name, false);
    else if (f.columnType === TIMESTAMP) stamps.set(f.name, true);
  }
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      const v = row[k];
      if (Buffer.isBuffer(v)) row[k] = v.toString('base64');
      else if (typeof v === 'string' && stamps.has(k) && /^\d{4}-/.test(v)) row[k] = `${v.replace(' ', 'T')}${stamps.get(k) ? 'Z' : ''}`;
    }
  }
  return rows;
}
