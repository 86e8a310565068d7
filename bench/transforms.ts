// Transform-heavy interface (filter, math, rename, aggregate, jq over 1,000 posted records) served
// three ways in one process on loopback: the fast path (generated module), the interpreter, and a
// hand-written fastify handler doing the same work. Load: undici, 16 concurrent requests, a warm-up
// then a fixed time per server in interleaved rounds. Prints a table and writes bench/results/transforms.json.
// Run: node --import tsx bench/transforms.ts [seconds=3]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { buildApp } from '../runtime/server/app.ts';
import { planOf, testEnv } from '../test/support/plans.ts';
import { executeInterface } from '../runtime/exec/run.ts';
import { systemClock } from '../runtime/services.ts';
import type { Plan } from '../runtime/plan.ts';
import { handWritten, records, YAML, type Item } from './transforms-work.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const WARMUP_MS = 1500;
const CONCURRENCY = 16;
const ROUNDS = 3;

async function load(url: string, payload: string, ms: number): Promise<{ requests: number; seconds: number }> {
  const pool = new Pool(url, { connections: CONCURRENCY });
  let requests = 0;
  const end = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await pool.request({ method: 'POST', path: '/report', headers: { 'content-type': 'application/json' }, body: payload });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      requests++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { requests, seconds };
}

/** Mean ms per call of the work alone (body parse + transforms, no HTTP), after a warm-up. */
async function workMs(f: () => unknown, ms: number): Promise<number> {
  for (const end = performance.now() + 500; performance.now() < end;) await f();
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) { await f(); n++; }
  return (performance.now() - t0) / n;
}

function execOf(plan: Plan, payload: string) {
  const i = plan.interfaces[0]!;
  const o = { trigger: 'test' as const, env: testEnv(), services: { clock: systemClock } };
  return () => executeInterface(plan, i, { method: 'POST', path: '/report', params: {}, headers: {}, body: JSON.parse(payload), rawBody: payload }, o);
}

async function main() {
  const payload = JSON.stringify(records());
  const fastPlan = await planOf('bench.yaml', 'compiled', YAML);
  const slowPlan = await planOf('bench.yaml', 'interpreted', YAML);
  const fast = buildApp([fastPlan], { env: testEnv() });
  const slow = buildApp([slowPlan], { env: testEnv() });
  const hand = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  hand.post('/report', async (req) => handWritten(req.body as { items: Item[] }));
  const servers = { fast_path: fast, interpreter: slow, hand_written: hand };
  const urls: Record<string, string> = {};
  for (const [name, app] of Object.entries(servers)) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    urls[name] = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  }
  // The three must answer the same bytes, or the comparison means nothing.
  const answers = await Promise.all(Object.values(urls).map(async (u) => (await fetch(`${u}/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })).text()));
  const identical = answers.every((a) => a === answers[0]);
  if (!identical) console.error('WARNING: responses differ:\n' + answers.map((a) => a.slice(0, 300)).join('\n'));

  // Rounds interleave the servers, so a change in machine load hits all three alike.
  const results: Record<string, { requests: number; seconds: number; rps: number }> = {};
  for (const url of Object.values(urls)) await load(url, payload, WARMUP_MS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(urls)) {
      const r = await load(url, payload, (SECONDS * 1000) / ROUNDS);
      const acc = (results[name] ??= { requests: 0, seconds: 0, rps: 0 });
      acc.requests += r.requests;
      acc.seconds += r.seconds;
      acc.rps = Math.round(acc.requests / acc.seconds);
    }
  }
  for (const app of Object.values(servers)) await app.close();
  const work = {
    fast_path: await workMs(execOf(fastPlan, payload), 1000),
    interpreter: await workMs(execOf(slowPlan, payload), 1000),
    hand_written: await workMs(() => handWritten(JSON.parse(payload) as { items: Item[] }), 1000),
    json_parse_only: await workMs(() => JSON.parse(payload), 500),
  };

  const ratio = (a: string, b: string) => Math.round((results[a]!.rps / results[b]!.rps) * 100) / 100;
  const out = {
    at: new Date().toISOString(), node: process.version, cpus: cpus().length, seconds: SECONDS, concurrency: CONCURRENCY,
    records: 1000, body_bytes: payload.length, response_bytes: answers[0]!.length, identical_responses: identical, results,
    ratios: { fast_over_interpreter: ratio('fast_path', 'interpreter'), fast_over_hand_written: ratio('fast_path', 'hand_written') },
    work_ms_per_request: Object.fromEntries(Object.entries(work).map(([k, v]) => [k, +v.toFixed(3)])),
    work_ratios: { fast_over_interpreter: +(work.interpreter / work.fast_path).toFixed(2), fast_over_hand_written: +(work.hand_written / work.fast_path).toFixed(2) },
    load_average: loadavg().map((x) => +x.toFixed(2)),
    targets: { fast_over_interpreter: '>= 3', fast_over_hand_written: '>= 0.85' },
  };
  console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { 'req/s': v.rps, requests: v.requests, seconds: +v.seconds.toFixed(2) }])));
  console.log(`over HTTP: fast/interpreter ${out.ratios.fast_over_interpreter}x (target >= 3), fast/hand-written ${out.ratios.fast_over_hand_written}x (target >= 0.85)`);
  console.table(Object.fromEntries(Object.entries(out.work_ms_per_request).map(([k, v]) => [k, { 'ms per request (no HTTP)': v }])));
  console.log(`work only: fast/interpreter ${out.work_ratios.fast_over_interpreter}x, fast/hand-written ${out.work_ratios.fast_over_hand_written}x; load average ${out.load_average.join(' ')} on ${out.cpus} cpus`);
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'transforms.json'), JSON.stringify(out, null, 2) + '\n');
}

await main();
