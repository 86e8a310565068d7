// The fault harness: N compiled nodes on one Postgres (through a counting proxy) and a private
// Mosquitto, a load mix kept going for a set time, a fault plan applied during it, then the
// invariants checked from the independent ledger and the figures collected. Every loop is bounded in
// time and every process started here is stopped by its pid, whatever happens.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { FAULTS_CONFIG } from './config.ts';
import { startLedger, type Ledger } from './ledger.ts';
import { startLoad, KINDS, type Kind, type Load } from './load.ts';
import { compileBundle, freePort, killNode, makeNode, pauseNode, probe, resumeNode, startNode, stopAll, type Memory, type Node } from './nodes.ts';
import { pgProxy, type PgProxy } from './pg-proxy.ts';
import { checkInvariants, type Invariants } from './invariants.ts';

export type FaultKind = 'kill' | 'pause' | 'store' | 'broker' | 'hang';
export interface Fault { kind: FaultKind; atMs: number; forMs: number; node?: number }
export interface FaultWindow { kind: FaultKind; node?: string; from: number; to: number; recoveredMs?: number }

export interface FaultsOptions {
  nodes: number;
  durationMs: number;
  faults: Fault[];
  workers?: number;
  pauseMs?: number;
  leaseSecs?: number;
  /** After the load: how long accepted runs get to finish before the invariants are checked. */
  drainMs?: number;
  /** A Postgres cluster of the harness's own, restarted for real by a `store` fault (bench only). */
  ownPostgres?: boolean;
  databaseUrl?: string;
  /** Memory and handles of every node every this many ms (the soak). */
  sampleEveryMs?: number;
  /** Load before each node's memory baseline is taken (default 5% of the duration, 2 to 60 s, and
   *  before the first fault). */
  warmupMs?: number;
  log?: (line: string) => void;
}

export interface FaultsReport {
  nodes: number;
  durationMs: number;
  windows: FaultWindow[];
  invariants: Invariants;
  figures: {
    accepted: number;
    runsPerSec: number;
    latency: Partial<Record<Kind, { n: number; p50: number; p99: number }>>;
    durableCompleted: number;
    pgRoundTripsPerDurableRun: number;
    pgBytesPerDurableRun: number;
    /** Each node after the warm-up and after the drain, both after a full GC. */
    memory: Array<{ node: string; baseline?: Memory; after?: Memory }>;
    samples: Array<{ at: number; node: string } & Memory>;
  };
}

const SHARED_PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function runFaults(o: FaultsOptions): Promise<FaultsReport> {
  const log = o.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'pw-faults-'));
  const schema = `pw_faults_${process.pid}_${Date.now().toString(36)}`;
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const nodes: Node[] = [];
  try {
    // The compile is a child process: the ledger, the store and the broker start while it runs.
    const compiled = compileBundle(dir, FAULTS_CONFIG);
    compiled.catch(() => {});
    const ledger = await startLedger();
    cleanups.push(() => ledger.close());
    const postgres = o.ownPostgres ? await ownCluster() : undefined;
    if (postgres) cleanups.push(() => postgres.drop());
    const target = postgres ? { host: '127.0.0.1', port: postgres.port } : { host: '127.0.0.1', port: Number(new URL(o.databaseUrl ?? SHARED_PG).port || 5432) };
    const proxy = await pgProxy(target);
    cleanups.push(() => proxy.close());
    const dbUrl = proxy.url(postgres ? 'postgres' : new URL(o.databaseUrl ?? SHARED_PG).pathname.slice(1));
    const broker = await privateBroker(dir);
    cleanups.push(() => broker.stop());
    const env = {
      SERVICE__DATABASE_URL: dbUrl, SERVICE__DATABASE_SCHEMA: schema, SERVICE__MAX_DELAY_SECS: '0.5', SERVICE__RESUME_POLL_MS: '100',
      SERVICE__LEASE_SECS: String(o.leaseSecs ?? 2), SERVICE__MQTT_URL: broker.url, SERVICE__VAR__LEDGER: ledger.url, SERVICE__LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < o.nodes; i++) nodes.push(await makeNode(`node${i}`, dir));
    cleanups.push(() => stopAll(nodes));
    const server = await compiled;
    // All together: the store's migration runs under an advisory lock (one node migrates, the others
    // wait for it and skip), which nodes of a real deployment rely on as well.
    await Promise.all(nodes.map((n) => startNode(n, server, env)));
    const counters0 = { ...proxy.counters };
    const load = startLoad(nodes, ledger, { workers: o.workers ?? 6, pauseMs: o.pauseMs ?? 20, mqttUrl: broker.url, tag: schema });
    const t0 = Date.now();
    const samples: FaultsReport['figures']['samples'] = [];
    const probeLive = (n: Node) => (load.paused.has(n.name) ? Promise.resolve(undefined) : probe(n));
    const sampler = o.sampleEveryMs ? setInterval(() => {
      void Promise.all(nodes.map(async (n) => { const m = await probeLive(n); if (m) samples.push({ at: Date.now() - t0, node: n.name, ...m }); return m; }))
        .then((ms) => log(`sample: ${ms.map((m, i) => `${nodes[i]!.name} ${m ? `heap ${m.heapKb} KiB, RSS ${m.rssKb} KiB, ${m.fds} fds` : 'no answer'}`).join('; ')}; load ${loadavg()[0]!.toFixed(2)}`));
    }, o.sampleEveryMs) : undefined;
    const windows: FaultWindow[] = [];
    // Each node's memory baseline after the warm-up, before any fault (a slow probe delays them).
    const firstFault = Math.min(...o.faults.map((f) => f.atMs - 500));
    const warmup = Math.min(o.warmupMs ?? Math.max(2000, Math.min(60_000, o.durationMs * 0.05)), firstFault, o.durationMs);
    const baseline = new Map<string, Memory>();
    const baselineTaken = (async () => {
      await sleep(warmup);
      await Promise.all(nodes.map(async (n) => { const m = await probeLive(n); if (m) baseline.set(n.name, m); }));
      log(`memory baseline after ${Date.now() - t0} ms: ${[...baseline].map(([k, m]) => `${k} heap ${m.heapKb} KiB`).join(', ')}`);
    })();
    // One fault at a time: each waits for its time and for the one before it to be over (undone and
    // recovered), so a slow machine stretches the plan instead of overlapping faults (a node started
    // again during a store outage refuses to start, as it should).
    const applied = (async () => {
      await baselineTaken;
      for (const f of [...o.faults].sort((a, b) => a.atMs - b.atMs)) {
        await sleep(f.atMs - (Date.now() - t0));
        windows.push(await apply(f, { nodes, server, env, proxy, broker, ledger, load, postgres, log }));
      }
    })();
    await baselineTaken;
    await sleep(o.durationMs - (Date.now() - t0));
    await applied;
    await load.stop();
    if (sampler) clearInterval(sampler);
    log(`load stopped after ${Date.now() - t0} ms: ${load.sent.length} sent`);
    const elapsed = Date.now() - t0;
    await load.finishApprovals(o.drainMs ?? 20_000);
    const invariants = await checkInvariants({ load, ledger, nodes, windows, db: { url: dbUrl, schema }, drainMs: o.drainMs ?? 20_000, leaseMs: (o.leaseSecs ?? 2) * 1000, baseline, probe });
    const accepted = load.sent.filter((s) => typeof s.status === 'number' && s.status < 300);
    const latency: FaultsReport['figures']['latency'] = {};
    for (const k of KINDS) {
      const ms = accepted.filter((s) => s.kind === k).map((s) => s.ms).sort((a, b) => a - b);
      if (ms.length) latency[k] = { n: ms.length, p50: ms[Math.floor(ms.length * 0.5)]!, p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]! };
    }
    const durableCompleted = ledger.effects.filter((e) => e.action === 'Finish' || e.action === 'Approved').length;
    const c = proxy.counters;
    return {
      nodes: o.nodes, durationMs: o.durationMs, windows, invariants,
      figures: {
        accepted: accepted.length,
        runsPerSec: Math.round((accepted.length / (elapsed / 1000)) * 10) / 10,
        latency, durableCompleted,
        pgRoundTripsPerDurableRun: durableCompleted ? Math.round(((c.roundTrips - counters0.roundTrips) / durableCompleted) * 10) / 10 : 0,
        pgBytesPerDurableRun: durableCompleted ? Math.round((c.bytesOut - counters0.bytesOut + c.bytesIn - counters0.bytesIn) / durableCompleted) : 0,
        memory: invariants.memory,
        samples,
      },
    };
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve().then(c).catch(() => {});
    if (!o.ownPostgres) await dropSchema(o.databaseUrl ?? SHARED_PG, schema).catch(() => {});
  }
}

interface Ctx {
  nodes: Node[]; server: string; env: Record<string, string>; proxy: PgProxy; broker: Broker; ledger: Ledger; load: Load;
  postgres: OwnCluster | undefined; log: (l: string) => void;
}

/** Applies one fault, waits its time, undoes it, and measures how long until the part works again. */
async function apply(f: Fault, c: Ctx): Promise<FaultWindow> {
  const from = Date.now();
  const n = f.node !== undefined ? c.nodes[f.node % c.nodes.length] : undefined;
  c.log(`fault ${f.kind}${n ? ` ${n.name}` : ''} for ${f.forMs} ms`);
  switch (f.kind) {
    case 'kill': {
      await killNode(n!);
      await sleep(f.forMs);
      const to = Date.now();
      await startNode(n!, c.server, c.env);
      return { kind: f.kind, node: n!.name, from, to, recoveredMs: Date.now() - to };
    }
    case 'pause': {
      c.load.paused.add(n!.name);
      pauseNode(n!);
      await sleep(f.forMs);
      resumeNode(n!);
      const to = Date.now();
      await until(async () => (await fetch(`${n!.url}/_ap/health`).then((r) => r.ok, () => false)) || undefined, 30_000);
      c.load.paused.delete(n!.name);
      return { kind: f.kind, node: n!.name, from, to, recoveredMs: Date.now() - to };
    }
    case 'store': {
      if (c.postgres) await c.postgres.stop(); else await c.proxy.cut();
      await sleep(f.forMs);
      if (c.postgres) await c.postgres.start(); else await c.proxy.restore();
      const to = Date.now();
      // Recovered when a run that needs the store is accepted again.
      const recovered = await until(async () => {
        const live = c.nodes.find((x) => !x.stopped && !c.load.paused.has(x.name));
        if (!live) return undefined;
        const r = await fetch(`${live.url}/slow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `probe-${to}` }) }).then((x) => x.status, () => 0);
        return r === 202 || undefined;
      }, 60_000).then(() => Date.now() - to, () => undefined);
      return { kind: f.kind, from, to, ...(recovered !== undefined ? { recoveredMs: recovered } : {}) };
    }
    case 'broker': {
      await c.broker.stop();
      await sleep(f.forMs);
      await c.broker.start();
      const to = Date.now();
      // Recovered when a publish triggers a run again (the nodes reconnected and resubscribed).
      const probe = await mqtt.connectAsync(c.broker.url, { protocolVersion: 5, reconnectPeriod: 0 });
      let n = 0;
      const recovered = await until(async () => {
        const id = `probe-${to}-${n++}`;
        await probe.publishAsync(`dev/sensor/faults/${id}`, JSON.stringify({ id }), { qos: 1 });
        await sleep(100);
        return c.ledger.effects.some((e) => e.id.startsWith(`probe-${to}-`)) || undefined;
      }, 30_000).then(() => Date.now() - to, () => undefined);
      await probe.endAsync(true);
      return { kind: f.kind, from, to, ...(recovered !== undefined ? { recoveredMs: recovered } : {}) };
    }
    case 'hang': {
      c.ledger.hang(true);
      await sleep(f.forMs);
      c.ledger.hang(false);
      const to = Date.now();
      // Recovered when a call to the upstream is answered again.
      const recovered = await until(async () => {
        const live = c.nodes.find((x) => !x.stopped && !c.load.paused.has(x.name));
        const r = live ? await fetch(`${live.url}/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `probe-${to}` }) }).then((x) => x.status, () => 0) : 0;
        return r === 200 || undefined;
      }, 30_000).then(() => Date.now() - to, () => undefined);
      return { kind: f.kind, from, to, ...(recovered !== undefined ? { recoveredMs: recovered } : {}) };
    }
  }
}

interface Broker { url: string; start(): Promise<void>; stop(): Promise<void> }

/** A Mosquitto of the harness's own on a free port (never the machine's on 1883). */
async function privateBroker(dir: string): Promise<Broker> {
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  let child: ChildProcess | undefined;
  const accepting = () => new Promise<boolean>((ok) => { const s = connect(port, '127.0.0.1'); s.once('connect', () => { s.destroy(); ok(true); }); s.once('error', () => ok(false)); });
  const b: Broker = {
    url: `mqtt://127.0.0.1:${port}`,
    async start() { child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' }); await until(async () => (await accepting()) || undefined, 10_000); },
    async stop() {
      const ch = child;
      if (!ch || ch.exitCode !== null) return;
      const gone = new Promise((r) => ch.once('exit', r));
      ch.kill('SIGTERM');
      await gone;
    },
  };
  await b.start();
  return b;
}

interface OwnCluster { port: number; start(): Promise<void>; stop(): Promise<void>; drop(): Promise<void> }

/** A Postgres cluster of the harness's own (pg_createcluster, trust on loopback): a `store` fault
 *  stops and starts it for real. Bench only: creating one takes seconds. */
async function ownCluster(): Promise<OwnCluster> {
  const version = spawnSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).stdout.trim().split('\n')[0]!;
  const port = await freePort();
  const name = `pwfaults${process.pid}`;
  const run = (cmd: string, args: string[]) => { const r = spawnSync(cmd, args, { encoding: 'utf8' }); if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`); };
  run('pg_createcluster', [version, name, '-p', String(port), '--', '-A', 'trust']);
  const ready = () => until(() => (spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0) || undefined, 30_000);
  const c: OwnCluster = {
    port,
    async start() { run('pg_ctlcluster', [version, name, 'start']); await ready(); },
    async stop() { run('pg_ctlcluster', [version, name, 'stop', '-m', 'fast']); },
    async drop() { spawnSync('pg_dropcluster', ['--stop', version, name]); },
  };
  await c.start();
  return c;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`); } finally { await client.end(); }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

export async function until<T>(f: () => Promise<T | undefined> | T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(50);
  }
}
