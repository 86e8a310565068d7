// Real servers for the database tests: a fresh Postgres schema and a fresh MariaDB database per test
// file (other helpers' tests share the servers), and a run of one interface in either path.
import pg from 'pg';
import mysql from 'mysql2/promise';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import type { Plan } from '../../runtime/plan.ts';
import { planOf, testEnv } from '../support/plans.ts';

export const PG_BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MARIADB_BASE = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

export const uniqueName = (tag: string) => `pw_${tag}_${process.pid}_${Date.now().toString(36)}`;

/** A new schema; the URL puts it first on the search_path, so unqualified tables land in it. */
export async function pgSchema(tag: string): Promise<{ url: string; name: string; sql: (q: string, v?: unknown[]) => Promise<any[]>; drop: () => Promise<void> }> {
  const name = uniqueName(tag);
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  await c.query(`CREATE SCHEMA "${name}"`);
  await c.query(`SET search_path TO "${name}"`);
  return {
    name,
    url: `${PG_BASE}?options=${encodeURIComponent(`-c search_path=${name}`)}`,
    sql: async (q, v) => (await c.query(q, v)).rows,
    drop: async () => { await c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`); await c.end(); },
  };
}

export async function mariaDb(tag: string): Promise<{ url: string; name: string; sql: (q: string, v?: unknown[]) => Promise<any[]>; drop: () => Promise<void> }> {
  const name = uniqueName(tag);
  const c = await mysql.createConnection({ uri: MARIADB_BASE, multipleStatements: false });
  await c.query(`CREATE DATABASE \`${name}\``);
  await c.query(`USE \`${name}\``);
  return {
    name,
    url: `${MARIADB_BASE}/${name}`,
    sql: async (q, v) => (await c.query(q, v))[0] as any[],
    drop: async () => { await c.query(`DROP DATABASE IF EXISTS \`${name}\``); await c.end(); },
  };
}

export const MODES = ['compiled', 'interpreted'] as const;

/** Runs interface `name` of a config with the given secrets. */
export async function runner(file: string, yaml: string, mode: (typeof MODES)[number], secrets: Record<string, string> = {}, services: Services = { clock: systemClock }, o: { unchecked?: boolean } = {}) {
  const plan: Plan = await planOf(file, mode, yaml, o);
  return (name: string, req: { body?: unknown; params?: Record<string, string> } = {}): Promise<RunResult> => {
    const i = plan.interfaces.find((x) => x.name === name)!;
    return executeInterface(plan, i, { method: 'POST', path: i.route, params: req.params ?? {}, headers: {}, body: req.body ?? null, rawBody: '' }, { trigger: 'test', env: testEnv({}, secrets), services });
  };
}
