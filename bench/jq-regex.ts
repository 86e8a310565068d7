// `npm run bench:jq-regex`: jq regex programs run off the main thread (runtime/jq/pool.ts). One
// `pipewright serve` (fast path), three rounds side by side: plain requests alone; plain requests
// while two hostile requests (a catastrophic jq regex, given up at SERVICE__JQ_REGEX_TIMEOUT_MS) are
// kept in flight; requests whose assert runs an ordinary jq regex on the pool. Ratios of requests/s
// and of the server's CPU per request, which stay meaningful on a shared machine.
// --cli <path>: another checkout's bin/pipewright.mjs (e.g. the code before this change, to compare).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuUs, startServer, stopServer } from './proc.ts';
import { cli } from './paths.ts';
import { loadRound, type Round } from './load.ts';

const { values: o } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' }, cli: { type: 'string', default: cli } } });
const SECONDS = Number(o.seconds), CONNECTIONS = Number(o.connections);

const assert = (jq: string) => `
    assert:
      tests:
        - jq: ${JSON.stringify(jq)}
          is_equal_to: true`;
const config = `
interfaces:
  plain:
    method: POST
    actions: [{ name: Echo, input: a|body|, output: http }]
  regex:
    method: POST${assert('.s | test("a.c")')}
    actions: [{ name: Echo, input: a|body|, output: http }]
  hostile:
    method: POST${assert('.s as $s | [range(100) | try ($s | test("(a+)+$")) catch false] | any')}
    actions: [{ name: Echo, input: a|body|, output: http }]
`;
const dir = mkdtempSync(join(tmpdir(), 'pw-bench-jq-regex-'));
writeFileSync(join(dir, 'regex.yaml'), config);
const post = (path: string, s: string) => ({ method: 'POST' as const, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ s }) });

const server = await startServer('fast path', process.execPath, [o.cli, 'serve', join(dir, 'regex.yaml'), '--port', '0'], { env: { SERVICE__JQ_REGEX_TIMEOUT_MS: '1000', SERVICE__LOG_LEVEL: 'warn' } });
async function round(path: string, s: string): Promise<Round> {
  const cpu0 = cpuUs(server.child.pid);
  const r = await loadRound(server.url, post(path, s), { connections: CONNECTIONS, seconds: SECONDS });
  return { ...r, cpuUsPerReq: (cpuUs(server.child.pid) - cpu0) / Math.max(1, r.requests) };
}
try {
  await round('/plain', 'xabcx'); // warm-up
  const alone = await round('/plain', 'xabcx');
  // Two hostile requests kept in flight for the whole round.
  let stop = false, hostile = 0;
  const keep = async () => { while (!stop) { await fetch(`${server.url}/hostile`, post('/hostile', `${'a'.repeat(40)}b`)).then((r) => r.arrayBuffer()); hostile++; } };
  const keepers = [keep(), keep()];
  const underAttack = await round('/plain', 'xabcx');
  stop = true;
  await Promise.all(keepers);
  const regex = await round('/regex', 'xabcx');
  const row = (name: string, r: Round) => `| ${name} | ${Math.round(r.rps)} | ${r.p99Ms} | ${Math.round(r.cpuUsPerReq!)} | ${r.errors + r.non2xx} |`;
  console.log(['| round | req/s | p99 ms | CPU µs/req | errors+non2xx |', '|---|---|---|---|---|',
    row('plain, alone', alone), row('plain, 2 hostile jq regexes in flight', underAttack), row('ordinary jq regex (pool)', regex)].join('\n'));
  console.log(`hostile requests completed meanwhile (each given up at 1000 ms): ${hostile}`);
  console.log(`plain under attack / alone: ${(underAttack.rps / alone.rps).toFixed(2)}× req/s; regex / plain CPU per request: ${(regex.cpuUsPerReq! / alone.cpuUsPerReq!).toFixed(2)}×`);
  console.log(`load average: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`);
} finally {
  await stopServer(server);
}
