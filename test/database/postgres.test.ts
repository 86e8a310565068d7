// The database action on Postgres, in both paths: rows by a bound parameter, the type mapping,
// multi batches, and request values that look like SQL staying data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { MODES, pgSchema, runner } from './helpers.ts';

let db: Awaited<ReturnType<typeof pgSchema>>;
beforeAll(async () => {
  db = await pgSchema('sql');
  await db.sql(`CREATE TABLE items (id int PRIMARY KEY, name text, big bigint, price numeric(12,4), at timestamptz, local timestamp, day date, doc jsonb, raw bytea, maybe text, ratio float8, huge numeric)`);
  await db.sql(`INSERT INTO items VALUES
    (1, 'one', 9007199254740993, 12.5000, '2024-03-01 10:20:30.123456+02', '2024-03-01 10:20:30.5', '2024-03-01', '{"a":[1,2],"b":null}', '\\x00ff10', NULL, 0.5, 123456789012345678901234567890.123),
    (2, 'two', 42, 0.1000, '2024-03-02 00:00:00+00', '2024-03-02 00:00:00', '2024-03-02', '[]', '\\x', 'x', 'NaN', 1)`);
});
afterAll(async () => { await closeDatabasePools(); await db.drop(); });

const config = (url: string) => `
databases:
  main:
    url: a|secret::PG_URL|
    pool_size: 3
    statement_timeout: 5s
interfaces:
  byId:
    actions:
      - name: Items
        database: main
        query: SELECT * FROM items WHERE id = $1
        params: [a|body::id|]
  byName:
    actions:
      - name: Find
        query: SELECT id, name FROM items WHERE name = $1 ORDER BY id
        params: [a|body::name|]
  insert:
    actions:
      - name: Put
        query: INSERT INTO items (id, name) VALUES ($1, $2) RETURNING id, name
        params: [a|body::id|, a|body::name|]
      - name: Count
        query: SELECT count(*) AS n FROM items
  batch:
    actions:
      - name: Batch
        query: "CREATE TABLE batch_a (x int); INSERT INTO batch_a VALUES (1); INSERT INTO batch_a VALUES (2)"
        multi: true
      - name: Read
        query: SELECT sum(x) AS total FROM batch_a
  twoStatements:
    show_error_detail: true
    actions:
      - name: Two
        query: "SELECT 1; SELECT 2"
  override:
    conn_string: ${url}
    query: SELECT name FROM items ORDER BY id
  undeclared:
    actions:
      - name: Named
        database: reports
        conn_string: a|secret::PG_URL|
        query: SELECT name FROM items WHERE id = $1
        params: [a|body::id|]
  undeclaredFails:
    show_error_detail: true
    actions:
      - name: Named
        database: reports
        conn_string: a|secret::PG_URL|
        query: SELECT nope FROM items
`;

describe.each(MODES)('postgres database action (%s)', (mode) => {
  it('reads rows by a bound parameter with the documented type mapping', async () => {
    const run = await runner(`pg-${mode}.yaml`, config(db.url), mode, { PG_URL: db.url });
    const r = await run('byId', { body: { id: 1 } });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({
      Items: [{
        id: 1, name: 'one', big: '9007199254740993', price: '12.5000',
        at: '2024-03-01T08:20:30.123456Z', local: '2024-03-01T10:20:30.5', day: '2024-03-01',
        doc: { a: [1, 2], b: null }, raw: Buffer.from([0, 255, 16]).toString('base64'), maybe: null, ratio: 0.5,
        huge: '123456789012345678901234567890.123',
      }],
    });
    const two = await run('byId', { body: { id: 2 } });
    const row = (two.response.body as any).Items[0];
    expect([row.big, row.ratio, row.raw, row.doc, row.huge]).toEqual([42, 'NaN', '', [], '1']);
  });

  it('keeps SQL metacharacters in request values as data', async () => {
    const run = await runner(`pg-inj-${mode}.yaml`, config(db.url), mode, { PG_URL: db.url });
    const evil = `x'; DROP TABLE items; --\n"quoted" \\ back ${mode}`;
    const put = await run('insert', { body: { id: mode === 'compiled' ? 101 : 102, name: evil } });
    expect(put.response.status).toBe(200);
    expect((put.response.body as any).Put).toEqual([{ id: mode === 'compiled' ? 101 : 102, name: evil }]);
    const found = await run('byName', { body: { name: evil } });
    expect(found.response.body).toEqual({ Find: [{ id: mode === 'compiled' ? 101 : 102, name: evil }] });
    const nothing = await run('byName', { body: { name: `' OR '1'='1` } });
    expect(nothing.response.body).toEqual({ Find: [] });
    expect(await db.sql(`SELECT count(*)::int AS n FROM items WHERE id <= 2`)).toEqual([{ n: 2 }]);
  });

  it('runs a multi batch through the simple protocol and refuses several statements without it', async () => {
    const run = await runner(`pg-multi-${mode}.yaml`, config(db.url).replace(/batch_a/g, `batch_${mode}`), mode, { PG_URL: db.url });
    const r = await run('batch');
    expect(r.response.body).toEqual({ Batch: [], Read: [{ total: 3 }] });
    const two = await run('twoStatements');
    expect(two.response.status).toBe(500);
    expect((two.response.body as any).error).toMatchObject({ action: 'Two', message: 'action "Two" failed' });
    expect((two.response.body as any).error.detail).toContain('SQLSTATE 42601');
  });

  it('serves the conn_string + query shorthand', async () => {
    const run = await runner(`pg-short-${mode}.yaml`, config(db.url), mode, { PG_URL: db.url });
    const r = await run('override');
    expect((r.response.body as any[]).slice(0, 2)).toEqual([{ name: 'one' }, { name: 'two' }]);
  });

  it('runs an undeclared database name beside conn_string, the name labelling its messages', async () => {
    const run = await runner(`pg-undeclared-${mode}.yaml`, config(db.url), mode, { PG_URL: db.url });
    expect((await run('undeclared', { body: { id: 2 } })).response.body).toEqual({ Named: [{ name: 'two' }] });
    const bad = (await run('undeclaredFails')).response;
    expect(bad.status).toBe(500);
    expect((bad.body as any).error.detail).toMatch(/^database "reports": .*nope/);
  });
});
