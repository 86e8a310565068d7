// The database action on MariaDB through mysql2, in both paths: `?` parameters, the type mapping
// (the same choices as Postgres), metacharacters staying data, and several statements refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { MODES, mariaDb, runner } from './helpers.ts';

let db: Awaited<ReturnType<typeof mariaDb>>;
beforeAll(async () => {
  db = await mariaDb('sql');
  await db.sql(`CREATE TABLE items (id INT PRIMARY KEY, name TEXT, big BIGINT, price DECIMAL(12,4), at TIMESTAMP(6) NULL, local DATETIME(6), day DATE, raw VARBINARY(16), maybe TEXT, ratio DOUBLE)`);
  await db.sql(`SET time_zone = '+02:00'`);
  await db.sql(`INSERT INTO items VALUES
    (1, 'one', 9007199254740993, 12.5, '2024-03-01 10:20:30.123456', '2024-03-01 10:20:30.5', '2024-03-01', x'00ff10', NULL, 0.5),
    (2, 'two', 42, 0.1, NULL, NULL, NULL, NULL, 'x', 2)`);
});
afterAll(async () => { await closeDatabasePools(); await db.drop(); });

const config = `
databases:
  maria:
    url: a|secret::MARIA_URL|
interfaces:
  byId:
    actions:
      - name: Items
        query: SELECT * FROM items WHERE id = ?
        params: [a|body::id|]
  insert:
    actions:
      - name: Put
        query: INSERT INTO items (id, name) VALUES (?, ?)
        params: [a|body::id|, a|body::name|]
      - name: Get
        query: SELECT id, name FROM items WHERE name = ?
        params: [a|body::name|]
  twoStatements:
    show_error_detail: true
    actions:
      - name: Two
        query: "SELECT 1; DROP TABLE items"
  undeclared:
    actions:
      - name: Named
        database: archive
        conn_string: a|secret::MARIA_URL|
        query: SELECT name FROM items WHERE id = ?
        params: [a|body::id|]
  undeclaredFails:
    show_error_detail: true
    actions:
      - name: Bad
        database: archive
        conn_string: a|secret::MARIA_URL|
        query: SELECT nope FROM items
`;

describe.each(MODES)('mariadb database action (%s)', (mode) => {
  it('reads rows by a bound parameter with the documented type mapping', async () => {
    const run = await runner(`maria-${mode}.yaml`, config, mode, { MARIA_URL: db.url });
    const r = await run('byId', { body: { id: 1 } });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({
      Items: [{
        id: 1, name: 'one', big: '9007199254740993', price: '12.5000',
        at: '2024-03-01T08:20:30.123456Z', local: '2024-03-01T10:20:30.500000', day: '2024-03-01',
        raw: Buffer.from([0, 255, 16]).toString('base64'), maybe: null, ratio: 0.5,
      }],
    });
    const two = (await run('byId', { body: { id: 2 } })).response.body as any;
    expect([two.Items[0].big, two.Items[0].at, two.Items[0].raw]).toEqual([42, null, null]);
  });

  it('keeps SQL metacharacters in request values as data', async () => {
    const run = await runner(`maria-inj-${mode}.yaml`, config, mode, { MARIA_URL: db.url });
    const id = mode === 'compiled' ? 101 : 102;
    const evil = `x'; DROP TABLE items; --\n"quoted" \\ back ${mode}`;
    const r = await run('insert', { body: { id, name: evil } });
    expect(r.response.status).toBe(200);
    expect((r.response.body as any).Get).toEqual([{ id, name: evil }]);
    expect(await db.sql(`SELECT count(*) AS n FROM items WHERE id <= 2`)).toEqual([{ n: 2 }]);
  });

  it('refuses several statements in one query', async () => {
    const run = await runner(`maria-two-${mode}.yaml`, config, mode, { MARIA_URL: db.url });
    const r = await run('twoStatements');
    expect(r.response.status).toBe(500);
    expect((r.response.body as any).error.detail).toMatch(/^database "maria": .*SQL syntax.*\(SQLSTATE 42000\)$/);
    expect(await db.sql(`SELECT count(*) AS n FROM items WHERE id <= 2`)).toEqual([{ n: 2 }]);
  });

  it('runs an undeclared database name beside conn_string, the name labelling its messages', async () => {
    const run = await runner(`maria-undeclared-${mode}.yaml`, config, mode, { MARIA_URL: db.url });
    expect((await run('undeclared', { body: { id: 2 } })).response.body).toEqual({ Named: [{ name: 'two' }] });
    const bad = (await run('undeclaredFails')).response;
    expect(bad.status).toBe(500);
    expect((bad.body as any).error.detail).toMatch(/^database "archive": .*nope/);
  });
});
