// Schema creation and migration: repeatable, safe when nodes start together, versioned.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../runtime/store/index.ts';
import { SCHEMA_VERSION } from '../../runtime/store/pg-schema.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { admin, dropSchema, freshSchema, PG_URL } from './pg.ts';

const versions = (schema: string) => admin(async (c) => (await c.query(`SELECT version FROM "${schema}".schema_version ORDER BY version`)).rows.map((r) => r.version));

describe('Postgres migrations', () => {
  const made: string[] = [];
  const schemaFor = (tag: string) => { const s = freshSchema(tag); made.push(s); return s; };
  afterAll(async () => { for (const s of made) await dropSchema(s); });

  it('run twice without error and record their version once', async () => {
    const schema = schemaFor('twice');
    for (let i = 0; i < 2; i++) {
      const s = new PostgresStore({ url: PG_URL, schema });
      await s.init();
      await s.init();
      await s.close();
    }
    expect(await versions(schema)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('run concurrently from five nodes without error', async () => {
    const schema = schemaFor('race');
    const stores = Array.from({ length: 5 }, () => new PostgresStore({ url: PG_URL, schema }));
    await Promise.all(stores.map((s) => s.init()));
    expect(await versions(schema)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    await stores[0]!.stateSet('ns', 'k', 1, undefined, 0);
    expect(await stores[4]!.stateGet('ns', ['k'], 0)).toEqual({ k: 1 });
    await Promise.all(stores.map((s) => s.close()));
  });

  it('openStore picks Postgres from SERVICE__DATABASE_URL and initialises it', async () => {
    const schema = schemaFor('open');
    const s = await openStore({ SERVICE__DATABASE_URL: PG_URL, SERVICE__DATABASE_SCHEMA: schema });
    expect(s).toBeInstanceOf(PostgresStore);
    expect(s.durable).toBe(true);
    expect(await versions(schema)).toHaveLength(SCHEMA_VERSION);
    await s.close();
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresStore({ url: PG_URL, schema: 'x"; DROP TABLE y; --' })).toThrow(/invalid store schema/);
  });
});
