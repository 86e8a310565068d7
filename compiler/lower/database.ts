// Database settings of actions and logs: a `database` name resolves to its declaration under the
// config's `databases:` (or the only one declared), `conn_string` overrides it per action (spec:
// "Database connection string override"), so beside a conn_string an undeclared name only labels the
// pool in messages. The result is a `db` block interpolated per run, so connection strings can come
// from a|secret::NAME|.
import type { ResponseIR } from '../../runtime/config-ir.ts';
import type { Node } from '../../runtime/ir.ts';
import { didYouMean } from '../source/suggest.ts';
import { parseMarkers } from '../markers/parse.ts';
import { LowerError } from './error.ts';
import { onlyTrustedMarkers } from './trusted.ts';
import { lowerValue } from './values.ts';
import { literalFilter } from './confine.ts';

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

/** The `db` block: { url, label, pool_size?, statement_timeout?, connect_timeout? }. */
export function dbBlock(name: unknown, connString: unknown, declared: Obj, at: Path): Obj {
  const names = Object.keys(declared);
  let decl: Obj = {};
  let label = 'conn_string';
  if (typeof name === 'string' && connString !== undefined && !Object.hasOwn(declared, name)) {
    label = name;
  } else if (typeof name === 'string') {
    if (!Object.hasOwn(declared, name)) {
      const hint = names.length ? didYouMean(name, names) ?? `declared databases: ${names.join(', ')}` : 'declare it under databases: at the top of the config, or set conn_string beside it';
      throw new LowerError(`unknown database "${name}"`, [...at, 'database'], hint);
    }
    decl = (declared[name] ?? {}) as Obj;
    label = name;
  } else if (connString === undefined) {
    if (names.length !== 1) {
      throw new LowerError(names.length ? 'say which database: several are declared' : 'no database to run on', at, names.length ? `add database: one of ${names.join(', ')}` : 'declare one under databases: (url: a|secret::DB_URL|) or set conn_string');
    }
    label = names[0]!;
    decl = (declared[label] ?? {}) as Obj;
  }
  const { url, ...settings } = decl;
  return { ...settings, url: connString ?? url, label };
}

/** A `database` action (or the interface's query shorthand) → its kind config. */
export function databaseConfig(a: Obj, at: Path, declared: Obj): Node {
  const query = a.query;
  if (typeof query !== 'string') throw new LowerError('query must be SQL text', [...at, 'query']);
  onlyTrustedMarkers(parseMarkers(query), [...at, 'query'], 'cannot be written into SQL text', (src) => `bind it as a parameter: put ${src} in params: and write $1 (Postgres) or ? (MySQL) in the query`);
  const cfg: Obj = { query, db: dbBlock(a.database, a.conn_string, declared, at) };
  if (a.params !== undefined) cfg.params = a.params;
  if (a.multi !== undefined) cfg.multi = a.multi;
  return lowerValue(cfg);
}

/** A `document_operation` action → its kind config (the operation with a `db` block). */
export function documentConfig(a: Obj, at: Path, declared: Obj): Node {
  const { database, ...op } = (a.document_operation ?? {}) as Obj;
  // A marker at a field of the filter is matched as a literal ($eq): operators only where the config writes them.
  if (op.filter !== undefined) op.filter = literalFilter(op.filter);
  return lowerValue({ ...op, db: dbBlock(database ?? a.database, a.conn_string, declared, [...at, 'document_operation']) });
}

/** `response.logs`: each entry's database as a `db` block, written after the run (runtime/actions/database/interface-log.ts). */
export function interfaceLogs(v: unknown, at: Path, declared: Obj): ResponseIR['logs'] {
  if (!Array.isArray(v) || !v.length) return undefined;
  return v.map((l: Obj, n) => ({ on: l.on as 'error' | 'success' | 'any', db: lowerValue(dbBlock(l.database, undefined, declared, [...at, n])) }));
}
