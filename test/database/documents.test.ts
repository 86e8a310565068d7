// document_operation on Postgres, in both paths: each operation with the shapes of the MongoDB
// driver, the filter subset and update operators, the table created on first use, and filter values
// from the request staying data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { MODES, pgSchema, runner } from './helpers.ts';

let db: Awaited<ReturnType<typeof pgSchema>>;
beforeAll(async () => { db = await pgSchema('docs'); });
afterAll(async () => { await closeDatabasePools(); await db.drop(); });

const op = (name: string, body: string) => `  ${name}:
    show_error_detail: true
    actions:
      - name: Op
        document_operation: ${body}
        output: http
`;

const config = (coll: string) => `
databases:
  docs: { url: "a|secret::DOCS_URL|" }
interfaces:
${op('insertOne', `{ collection: ${coll}, operation: insertOne, insert: a|body| }`)}
${op('insertMany', `{ collection: ${coll}, operation: insertMany, insert: a|body| }`)}
${op('find', `{ collection: ${coll}, operation: find, filter: a|body::filter|, sort: a|body::sort->default(null)|, limit: a|body::limit->default(null)|, skip: a|body::skip->default(null)|, projection: a|body::projection->default(null)| }`)}
${op('findOne', `{ collection: ${coll}, operation: findOne, filter: a|body::filter| }`)}
${op('count', `{ collection: ${coll}, operation: countDocuments, filter: a|body::filter| }`)}
${op('updateOne', `{ collection: ${coll}, operation: updateOne, filter: a|body::filter|, update: a|body::update| }`)}
${op('updateMany', `{ collection: ${coll}, operation: updateMany, filter: a|body::filter|, update: a|body::update| }`)}
${op('replaceOne', `{ collection: ${coll}, operation: replaceOne, filter: a|body::filter|, replacement: a|body::replacement| }`)}
${op('deleteOne', `{ collection: ${coll}, operation: deleteOne, filter: a|body::filter| }`)}
${op('deleteMany', `{ collection: ${coll}, operation: deleteMany, filter: a|body::filter| }`)}
${op('countIn', `{ collection: a|body::collection|, operation: countDocuments, filter: {} }`)}
`;

describe.each(MODES)('document_operation (%s)', (mode) => {
  const coll = `people_${mode}`;
  let run: Awaited<ReturnType<typeof runner>>;
  const body = async (name: string, b: unknown) => {
    const r = await run(name, { body: b });
    return { status: r.response.status, body: r.response.body as any };
  };
  // Whole filters and the collection come from the request here, which `check` refuses (test/security/
  // request-values.test.ts): the filter subset is tested as a config built without check runs it.
  beforeAll(async () => { run = await runner(`docs-${mode}.yaml`, config(coll), mode, { DOCS_URL: db.url }, undefined, { unchecked: true }); });

  it('runs on an undeclared database name beside conn_string (the name labels the pool)', async () => {
    const yaml = `interfaces:\n  put:\n    actions:\n      - name: Op\n        conn_string: a|secret::DOCS_URL|\n        document_operation: { database: archive, collection: archive_${mode}, operation: insertOne, insert: { _id: one } }\n`;
    const put = await runner(`docs-undeclared-${mode}.yaml`, yaml, mode, { DOCS_URL: db.url });
    expect((await put('put')).response.body).toEqual({ Op: { acknowledged: true, insertedId: 'one' } });
    expect(await db.sql(`SELECT _id FROM archive_${mode}`)).toEqual([{ _id: 'one' }]);
  });

  it('inserts, creating the collection on first use, with driver-shaped results', async () => {
    expect(await body('insertOne', { _id: 'ada', name: 'Ada', age: 36, tags: ['math', 'code'], address: { city: 'London' } }))
      .toEqual({ status: 200, body: { acknowledged: true, insertedId: 'ada' } });
    const many = await body('insertMany', [
      { name: 'Grace', age: 85, tags: ['navy', 'code'] },
      { name: 'Alan', age: 41, tags: ['math'], address: { city: 'Wilmslow' } },
      { name: "Bobby'); DROP TABLE people; --", age: null },
    ]);
    expect(many.body).toMatchObject({ acknowledged: true, insertedCount: 3 });
    expect(Object.keys(many.body.insertedIds)).toEqual(['0', '1', '2']);
    expect(await db.sql(`SELECT count(*)::int AS n FROM ${coll}`)).toEqual([{ n: 4 }]);
  });

  it('finds with the filter subset, sort, limit, skip and projection', async () => {
    const names = async (filter: unknown, extra: object = {}) => ((await body('find', { filter, ...extra })).body as any[]).map((d) => d.name);
    expect(await names({})).toEqual(['Ada', 'Grace', 'Alan', "Bobby'); DROP TABLE people; --"]);
    expect(await names({ tags: 'code' })).toEqual(['Ada', 'Grace']);
    expect(await names({ age: { $gt: 40, $lte: 85 } })).toEqual(['Grace', 'Alan']);
    expect(await names({ age: { $gte: 36, $lt: 41 } })).toEqual(['Ada']);
    expect(await names({ name: { $in: ['Alan', 'Ada', 'nobody'] } })).toEqual(['Ada', 'Alan']);
    expect(await names({ name: { $nin: ['Alan', 'Ada'] } })).toEqual(['Grace', "Bobby'); DROP TABLE people; --"]);
    expect(await names({ address: { $exists: true } })).toEqual(['Ada', 'Alan']);
    expect(await names({ age: null })).toEqual(["Bobby'); DROP TABLE people; --"]);
    expect(await names({ 'address.city': 'London' })).toEqual(['Ada']);
    expect(await names({ name: { $ne: 'Ada' }, $or: [{ age: { $gt: 80 } }, { tags: 'math' }] })).toEqual(['Grace', 'Alan']);
    expect(await names({ $and: [{ tags: 'math' }, { tags: { $ne: 'code' } }] })).toEqual(['Alan']);
    expect(await names({ name: { $gt: 'B' } })).toEqual(['Grace', "Bobby'); DROP TABLE people; --"]);
    expect(await names({ name: "x' OR '1'='1" })).toEqual([]);
    expect(await names({}, { sort: { age: -1 }, limit: 2, skip: 1 })).toEqual(['Alan', 'Ada']);
    expect((await body('find', { filter: { _id: 'ada' }, projection: { name: 1 } })).body).toEqual([{ _id: 'ada', name: 'Ada' }]);
    expect((await body('find', { filter: { _id: 'ada' }, projection: { tags: 0, address: 0, _id: 0 } })).body).toEqual([{ name: 'Ada', age: 36 }]);
    expect((await body('findOne', { filter: { name: 'Nobody' } })).body).toBeNull();
    expect((await body('findOne', { filter: { _id: 'ada' } })).body).toMatchObject({ _id: 'ada', name: 'Ada' });
    expect((await body('count', { filter: { tags: 'math' } })).body).toBe(2);
  });

  it('updates with $set, $unset, $inc and $push; counts matched and modified', async () => {
    expect((await body('updateOne', { filter: { _id: 'ada' }, update: { $set: { 'address.street': 'St James', lang: 'en' }, $inc: { age: 1 }, $push: { tags: 'poetry' }, $unset: { missing: '' } } })).body)
      .toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
    expect((await body('findOne', { filter: { _id: 'ada' } })).body).toEqual({ _id: 'ada', name: 'Ada', age: 37, lang: 'en', tags: ['math', 'code', 'poetry'], address: { city: 'London', street: 'St James' } });
    expect((await body('updateMany', { filter: { tags: 'code' }, update: { $push: { tags: { $each: ['x', 'y'] } }, $set: { 'meta.seen': true } } })).body).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect((await body('updateMany', { filter: { tags: 'code' }, update: { $set: { 'meta.seen': true } } })).body).toMatchObject({ matchedCount: 2, modifiedCount: 0 });
    expect((await body('updateOne', { filter: { name: 'Alan' }, update: { $unset: { address: '' } } })).body).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect((await body('find', { filter: { address: { $exists: false } } })).body.map((d: any) => d.name)).toEqual(['Grace', 'Alan', "Bobby'); DROP TABLE people; --"]);
    expect((await body('replaceOne', { filter: { _id: 'ada' }, replacement: { name: 'Augusta Ada' } })).body).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect((await body('findOne', { filter: { _id: 'ada' } })).body).toEqual({ _id: 'ada', name: 'Augusta Ada' });
  });

  it('deletes one or many', async () => {
    expect((await body('deleteOne', { filter: { tags: 'code' } })).body).toEqual({ acknowledged: true, deletedCount: 1 });
    expect((await body('deleteMany', { filter: { name: { $exists: true } } })).body).toEqual({ acknowledged: true, deletedCount: 3 });
    expect((await body('count', { filter: {} })).body).toBe(0);
  });

  it('refuses unsupported operators and a duplicate _id with a clear error', async () => {
    const r = await body('find', { filter: { name: { $regex: 'A' } } });
    expect(r.status).toBe(500);
    expect(r.body.error.detail).toBe('document_operation filter: unsupported operator $regex (supported: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $and, $or)');
    expect((await body('updateOne', { filter: {}, update: { name: 'x' } })).body.error.detail).toContain('"name" is not an update operator');
    await body('insertOne', { _id: 'dup' });
    expect((await body('insertOne', { _id: 'dup' })).body.error.detail).toMatch(/duplicate key value .*\(SQLSTATE 23505\)/);
  });

  it('takes a collection from the request only as a plain Postgres name (the store schema\'s rule)', async () => {
    for (const collection of ['people; DROP TABLE x', '1st', 'a'.repeat(64), 'dash-ed']) {
      const r = await body('countIn', { collection });
      expect(r.status).toBe(500);
      expect(r.body.error.detail).toBe(`document_operation: collection ${JSON.stringify(collection)} must be 1 to 63 letters, digits or _, not starting with a digit`);
    }
    expect((await body('countIn', { collection: 'a'.repeat(63) })).status).toBe(200);
  });
});
