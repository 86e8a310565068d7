// `pipewright run <config.yaml> <interface> [--body JSON] [--param k=v]...`: runs one interface once,
// prints the response body, exits 0 on success and 1 on a failed run; its log lines (the run's own
// "run finished" line last) go to stderr.
import { closeDatabasePools, executeInterface, linkPlans, logRunLine, logSettings, processEnvironment, encodeResponse, redactorOf, runnerOf, stderrLogger } from '../runtime/index.ts';
import { cliServices } from './services.ts';
import { fastpathDisabled, loadPlans } from './load-plans.ts';
import { err } from './output.ts';

export async function run(file: string, name: string, o: { body?: string; param?: string[]; 'no-fastpath'?: boolean }): Promise<number> {
  const plans = await loadPlans([file], fastpathDisabled(o['no-fastpath']));
  if (!plans) return 1;
  const plan = plans[0]!;
  const i = plan.interfaces.find((x) => x.name === name);
  if (!i) { err(`no interface "${name}" in ${file} (interfaces: ${plan.interfaces.map((x) => x.name).join(', ')})`); return 1; }
  let body: unknown = null;
  if (o.body !== undefined) {
    try { body = JSON.parse(o.body); } catch { err('--body must be JSON'); return 1; }
  }
  const params = Object.fromEntries((o.param ?? []).map((kv) => { const at = kv.indexOf('='); return at < 0 ? [kv, ''] : [kv.slice(0, at), kv.slice(at + 1)]; }));
  const request = { method: 'CLI', path: i.route, params, headers: {}, body, rawBody: o.body ?? '' };
  const env = processEnvironment();
  // The run's log lines as a server writes them (a failed action's reason, the config's messages),
  // on standard error.
  const services = { ...(await cliServices()), log: stderrLogger(logSettings(process.env), redactorOf(env)) };
  linkPlans(services, [plan], runnerOf(env, services));
  const result = await executeInterface(plan, i, request, { trigger: 'cli', env, services });
  logRunLine(services.log, result, services.clock.now());
  await services.store?.close();
  await closeDatabasePools();
  process.stdout.write(`${encodeResponse(result.response).payload}\n`);
  return result.state.status === 'succeeded' ? 0 : 1;
}
