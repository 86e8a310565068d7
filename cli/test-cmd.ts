// `pipewright test <config.yaml>...`: each interface's example request is run in process; the response
// must succeed, match `produces.schema` and `produces.example`, and pass the interface's `tests`.
// Semantics are in docs/decisions.md.
import { Ajv } from 'ajv';
import { isDeepStrictEqual } from 'node:util';
import { type InterfacePlan, type Plan, executeInterface, processEnvironment, type Services } from '../runtime/index.ts';
import { cliServices } from './services.ts';
import { fastpathDisabled, loadPlans } from './load-plans.ts';
import { err, paint } from './output.ts';

export async function testConfigs(files: string[], o: { 'no-fastpath'?: boolean }): Promise<number> {
  const plans = await loadPlans(files, fastpathDisabled(o['no-fastpath']));
  if (!plans) return 1;
  const services = await cliServices();
  let passed = 0;
  let failed = 0;
  for (const plan of plans) {
    for (const i of plan.interfaces) {
      if (!i.accepts?.example && !i.produces && !i.tests?.length) continue;
      const problems = await checkInterface(plan, i, services);
      if (problems.length) { failed++; err(`${paint.red('✗')} ${plan.name}.${i.name}\n${problems.map((p) => `    ${p}`).join('\n')}`); }
      else { passed++; err(`${paint.green('✓')} ${plan.name}.${i.name}`); }
    }
  }
  await services.store?.close();
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed ? 1 : 0;
}

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
