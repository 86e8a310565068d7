// `document_operation` action on Postgres: a collection is a JSONB table (collection.ts); filters and
// update operators become parameterised SQL (filter.ts, update.ts). Results have the shapes of the
// MongoDB Node driver's (docs/actions-database.md).
import type { ActionKind } from '../types.ts';
import { failed } from '../database/action.ts';
import { driverFor } from '../database/pools.ts';
import { dbSettings } from '../database/settings.ts';
import type { Driver, QueryOptions } from '../database/types.ts';
import { onCollection } from './collection.ts';
import { whereOf } from './filter.ts';
import { project } from './projection.ts';
import { isPlain, Params, table } from './sql.ts';
import { updateExpr } from './update.ts';

/** find without a limit returns at most this many documents (more is an error asking for a limit). */
export const MAX_FIND = 10_000;
const MAX_INSERT = 10_000;

export const OPERATIONS = ['insertOne', 'insertMany', 'find', 'findOne', 'updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany', 'countDocuments'];

interface Run {
  driver: Driver;
  t: string;
  c: Record<string, unknown>;
  o: QueryOptions;
  uuid: () => string;
}

export const documentOperation: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as Record<string, unknown>;
  try {
    const op = c.operation;
    if (typeof op !== 'string' || !OPERATIONS.includes(op)) throw new Error(`document_operation: operation must be one of ${OPERATIONS.join(', ')}`);
    const t = table(c.collection);
    const driver = driverFor(dbSettings(c.db));
    if (driver.dialect !== 'postgres') throw new Error('document_operation: collections live in Postgres; this database is MySQL/MariaDB');
    const run: Run = { driver, t, c, o: { signal: ctx.signal }, uuid: () => ctx.scope.env.uuid() };
    return { ok: true, data: await OPS[op]!(run) };
  } catch (e) {
    return failed(e);
  }
};

const OPS: Record<string, (r: Run) => Promise<unknown>> = {
  async insertOne(r) {
    if (!isPlain(r.c.insert)) throw new Error('document_operation insertOne: "insert" must be one document (an object)');
    const [doc] = withIds([r.c.insert], r.uuid);
    await onCollection(r.driver, r.t, `INSERT INTO ${r.t} (_id, doc) VALUES ($1, $2::jsonb)`, [idText(doc!._id), JSON.stringify(doc)], r.o);
    return { acknowledged: true, insertedId: doc!._id };
  },
  async insertMany(r) {
    const list = r.c.insert;
    if (!Array.isArray(list) || !list.every(isPlain)) throw new Error('document_operation insertMany: "insert" must be a list of documents');
    if (list.length > MAX_INSERT) throw new Error(`document_operation insertMany: at most ${MAX_INSERT} documents per call`);
    if (!list.length) return { acknowledged: true, insertedCount: 0, insertedIds: {} };
    const docs = withIds(list, r.uuid);
    await onCollection(r.driver, r.t, `INSERT INTO ${r.t} (_id, doc) SELECT x.id, x.doc FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS x(id, doc, n) ORDER BY x.n`, [docs.map((d) => idText(d._id)), docs.map((d) => JSON.stringify(d))], r.o);
    return { acknowledged: true, insertedCount: docs.length, insertedIds: Object.fromEntries(docs.map((d, i) => [String(i), d._id])) };
  },
  find: (r) => find(r, false),
  findOne: async (r) => (await find(r, true))[0] ?? null,
  async countDocuments(r) {
    const p = new Params();
    const rows = await onCollection(r.driver, r.t, `SELECT count(*) AS n FROM ${r.t} WHERE ${whereOf(r.c.filter, p)}`, p.values, r.o);
    return rows[0]!.n;
  },
  updateOne: (r) => update(r, true, false),
  updateMany: (r) => update(r, false, false),
  replaceOne: (r) => update(r, true, true),
  async deleteOne(r) {
    const p = new Params();
    const rows = await onCollection(r.driver, r.t, `WITH d AS (DELETE FROM ${r.t} WHERE _id = (SELECT _id FROM ${r.t} WHERE ${whereOf(r.c.filter, p)} ORDER BY _seq LIMIT 1) RETURNING 1) SELECT count(*) AS n FROM d`, p.values, r.o);
    return { acknowledged: true, deletedCount: rows[0]!.n };
  },
  async deleteMany(r) {
    const p = new Params();
    const rows = await onCollection(r.driver, r.t, `WITH d AS (DELETE FROM ${r.t} WHERE ${whereOf(r.c.filter, p)} RETURNING 1) SELECT count(*) AS n FROM d`, p.values, r.o);
    return { acknowledged: true, deletedCount: rows[0]!.n };
  },
};

/** Documents with their _id first: the given one, or a new uuid. */
function withIds(list: unknown[], uuid: () => string): Array<Record<string, unknown>> {
  return (list as Array<Record<string, unknown>>).map((d) => {
    const id = d._id ?? uuid();
    if (typeof id !== 'string' && typeof id !== 'number') throw new Error('document_operation: _id must be text or a number');
    return { ...d, _id: id };
  });
}

const idText = (id: unknown): string => String(id);

async function find(r: Run, one: boolean): Promise<unknown[]> {
  const p = new Params();
  const where = whereOf(r.c.filter, p);
  const order = sortOf(r.c.sort, p);
  const limit = one ? 1 : count(r.c.limit, 'limit');
  const skip = count(r.c.skip, 'skip') ?? 0;
  const take = limit !== undefined && limit > 0 ? Math.min(limit, MAX_FIND) : MAX_FIND + 1;
  const rows = await onCollection(r.driver, r.t, `SELECT doc FROM ${r.t} WHERE ${where} ORDER BY ${order}_seq LIMIT ${p.bind(take)} OFFSET ${p.bind(skip)}`, p.values, r.o);
  if (rows.length > MAX_FIND) throw new Error(`document_operation find: more than ${MAX_FIND} documents match; set a limit (and skip to page)`);
  return rows.map((x) => project(x.doc, r.c.projection));
}

function update(r: Run, one: boolean, replace: boolean): Promise<unknown> {
  const p = new Params();
  let next: string;
  if (replace) {
    const doc = r.c.replacement;
    if (!isPlain(doc) || Object.keys(doc).some((k) => k.startsWith('$'))) throw new Error('document_operation replaceOne: "replacement" must be a document without update operators');
    next = `(${p.json({ ...doc, _id: undefined })} || jsonb_build_object('_id', m.doc -> '_id'))`;
  } else next = updateExpr(r.c.update, p);
  const where = whereOf(r.c.filter, p);
  const sql = `WITH m AS (SELECT _id, doc FROM ${r.t} WHERE ${where} ORDER BY _seq${one ? ' LIMIT 1' : ''} FOR UPDATE), `
    + `u AS (UPDATE ${r.t} t SET doc = ${next} FROM m WHERE t._id = m._id RETURNING t.doc IS DISTINCT FROM m.doc AS changed) `
    + `SELECT count(*) AS matched, count(*) FILTER (WHERE changed) AS modified FROM u`;
  return onCollection(r.driver, r.t, sql, p.values, r.o).then(([row]) => ({ acknowledged: true, matchedCount: row!.matched, modifiedCount: row!.modified, upsertedCount: 0, upsertedId: null }));
}

function sortOf(sort: unknown, p: Params): string {
  if (sort === undefined || sort === null) return '';
  if (!isPlain(sort)) throw new Error('document_operation: sort is an object of field: 1 (ascending) or -1 (descending)');
  return Object.entries(sort).map(([f, dir]) => {
    if (dir !== 1 && dir !== -1) throw new Error(`document_operation sort: "${f}" must be 1 or -1`);
    return `doc #> ${p.path(f)} ${dir === 1 ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}, `;
  }).join('');
}

function count(v: unknown, what: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new Error(`document_operation: ${what} must be a whole number >= 0, not ${JSON.stringify(v)}`);
  return n;
}
