// `npm run bench:chain [-- seconds]`: the transform chain alone of the transform scenarios (no HTTP,
// no JSON parsing, no run bookkeeping): the fast path's chain, the interpreter's and the scenario's
// hand-written loop called on the same parsed body, in interleaved rounds, as CPU µs per call and
// their ratios side by side. `npm run bench` measures what users get; this isolates the transform
// work, which a profile of the whole server shows only as a few functions among many.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Plan } from '../runtime/plan.ts';
import type { Scope } from '../runtime/scope.ts';
import { planOf, testEnv } from '../test/support/plans.ts';
import { records, report, type Rec } from './scenarios/records.ts';
import { scenario as arrayFirst } from './scenarios/transform.ts';
import { scenario as underItems } from './scenarios/transform-target.ts';

const { values: o } = parseArgs({ options: { seconds: { type: 'string', default: '1' }, rounds: { type: 'string', default: '5' } } });
const ROUND_MS = Number(o.seconds) * 1000, ROUNDS = Number(o.rounds);

type Call = () => unknown;
const chainOf = (plan: Plan) => (plan.interfaces[0]!.actions[0] as unknown as { post: (d: unknown, s: Scope) => unknown }).post;

/** CPU µs per call over about `ms` of calls. */
function cpuPerCall(f: Call, ms: number): number {
  let n = 0;
  const c0 = process.cpuUsage(), end = performance.now() + ms;
  while (performance.now() < end) for (let i = 0; i < 10; i++, n++) f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: string[] = [];
for (const s of [arrayFirst, underItems]) {
  const body: unknown = JSON.parse(s.request.body!);
  const scope = { body, rawBody: s.request.body!, params: {}, headers: {}, steps: {}, state: {}, env: testEnv() } satisfies Scope;
  const items = Array.isArray(body) ? (body as Rec[]) : (body as { items: Rec[] }).items;
  const fast = chainOf(await planOf(`${s.name.replace(/-/g, '_')}.yaml`, 'compiled', s.config));
  const slow = chainOf(await planOf(`${s.name.replace(/-/g, '_')}.yaml`, 'interpreted', s.config));
  const ways: Record<string, Call> = { fast: () => fast(body, scope), interpreter: () => slow(body, scope), hand_written: () => report(items) };
  const want = JSON.stringify(report(records()));
  for (const [way, f] of Object.entries(ways)) if (JSON.stringify(f()) !== want) throw new Error(`${s.name}: ${way} answers differently`);
  for (const f of Object.values(ways)) cpuPerCall(f, ROUND_MS / 2); // warm-up
  const us: Record<string, number[]> = { fast: [], interpreter: [], hand_written: [] };
  for (let r = 0; r < ROUNDS; r++) for (const [way, f] of Object.entries(ways)) us[way]!.push(cpuPerCall(f, ROUND_MS));
  const [f, i, h] = ['fast', 'interpreter', 'hand_written'].map((w) => median(us[w]!));
  rows.push(`| ${s.name} | ${f!.toFixed(0)} | ${i!.toFixed(0)} | ${h!.toFixed(0)} | ${(i! / f!).toFixed(2)}× | ${(h! / f!).toFixed(2)}× |`);
}
process.stdout.write(`transform chain alone, CPU µs per call (median of ${ROUNDS} interleaved rounds), load ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n` +
  '| scenario | fast | interpreter | hand-written | interpreter/fast | hand/fast |\n|---|---|---|---|---|---|\n' + rows.join('\n') + '\n');
