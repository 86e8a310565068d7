// `pipewright test <config.yaml>...`: each interface's example request is run in process; the response
// must succeed, match `produces.schema` and `produces.example`, and pass the interface's `tests`.
// `--reporter` picks the output (cli/test-report.ts). Semantics are in docs/decisions.md.
import { Ajv } from 'ajv';
import { isDeepStrictEqual } from 'node:util';
import { type InterfacePlan, type Plan, executeInterface, processEnvironment, type Services } from '../runtime/index.ts';
import { cliServices } from './services.ts';
import { fastpathDisabled, loadPlans } from './load-plans.ts';
import { err, paint } from './output.ts';
import { formatTests, REPORTERS, summaryLine, type Reporter, type TestResult } from './test-report.ts';

export interface TestOptions {
  'no-fastpath'?: boolean;
  reporter?: string;
  'pass-with-no-tests'?: boolean;
  record?: boolean;
  'from-run'?: string;
  server?: string;
  'admin-token-file'?: string;
}

export async function testConfigs(files: string[], o: TestOptions): Promise<number> {
  if (o['from-run'] !== undefined) return (await import('./from-run.ts')).fromRun(files, o);
  const reporter = (o.reporter ?? 'default') as Reporter;
  if (!REPORTERS.includes(reporter)) { err(`--reporter must be one of ${REPORTERS.join(', ')}; got ${o.reporter}`); return 2; }
  const started = new Date();
  const plans = await loadPlans(files, fastpathDisabled(o['no-fastpath']));
  if (!plans) return 1;
  const services = await cliServices();
  const results: TestResult[] = [];
  plans.forEach((plan, n) => { if (!plan.interfaces.some(tested)) err(`${paint.yellow('warning')} ${files[n]}: no interface has accepts.example, produces or tests: nothing to run`); });
  for (const [n, plan] of plans.entries()) {
    for (const i of plan.interfaces) {
      if (!tested(i)) continue;
      const t0 = performance.now();
      const problems = await checkInterface(plan, i, services);
      results.push({ config: plan.name, file: files[n]!, interface: i.name, problems, ms: performance.now() - t0 });
      if (problems.length) err(`${paint.red('✗')} ${plan.name}.${i.name}\n${problems.map((p) => `    ${p}`).join('\n')}`);
      else err(`${paint.green('✓')} ${plan.name}.${i.name}`);
    }
  }
  await services.store?.close();
  const summary = `${summaryLine(results)}\n`;
  if (reporter === 'default') process.stdout.write(summary);
  else { process.stdout.write(formatTests(reporter, results, { started })); err(summary.trimEnd()); }
  // A run that tested nothing fails (as vitest and jest do) unless asked not to: a CI step that
  // checks nothing must not look green.
  if (!results.length && !o['pass-with-no-tests']) { err('no test ran: give an interface accepts.example, produces or tests, or pass --pass-with-no-tests'); return 1; }
  return results.some((t) => t.problems.length) ? 1 : 0;
}

const tested = (i: InterfacePlan) => !!(i.accepts?.example || i.produces || i.tests?.length);

export async function checkInterface(plan: Plan, i: InterfacePlan, services: Services): Promise<string[]> {
  const example = i.accepts?.example ?? null;
  const params = example && typeof example === 'object' && !Array.isArray(example) && i.method.startsWith('GET') && !i.method.includes('POST')
    ? Object.fromEntries(Object.entries(example).map(([k, v]) => [k, String(v)])) : {};
  const request = { method: i.method.split(',')[0]!, path: i.route, params, headers: { 'content-type': 'application/json' }, body: example, rawBody: example === null ? '' : JSON.stringify(example) };
  const env = processEnvironment();
  const r = await executeInterface(plan, i, request, { trigger: 'test', env, services });
  const problems: string[] = [];
  const body = r.response.body;
  if (r.response.status >= 400) problems.push(`status ${r.response.status}: ${JSON.stringify(body)}`);
  if (i.produces?.schema !== undefined) {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(i.produces.schema as object);
    if (!validate(body)) problems.push(`response does not match produces.schema: ${validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  }
  if (i.produces?.example !== undefined && !isDeepStrictEqual(body, i.produces.example)) {
    problems.push(`response differs from produces.example: got ${JSON.stringify(body)}`);
  }
  const s = { body: request.body, rawBody: request.rawBody, params, headers: request.headers, steps: r.state.steps, state: {}, env };
  for (const t of i.tests ?? []) {
    const v = await t(body, s);
    if (!v.ok) problems.push(v.message ?? 'test failed');
  }
  return problems;
}
