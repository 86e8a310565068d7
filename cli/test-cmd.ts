// `pipewright test <config.yaml>...`: each interface's example request is run in process; the response
// must succeed, match `produces.schema` and `produces.example`, and pass the interface's `tests`.
// Then the hermetic cases of `<config>.tests.yaml` beside each config (or `--cases FILE`), each with
// its own stand-ins (runtime/testing/). `--require-tests` fails interfaces nothing tests.
// `--reporter` picks the output (cli/test-report.ts). Semantics are in docs/decisions.md.
import { Ajv } from 'ajv';
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { runCase, sealGlobalDispatcher, type CaseFile } from '../runtime/testing/index.ts';
import { loadCases } from './test-cases.ts';
import { CaseRecordings } from './test-record.ts';
import { type InterfacePlan, type Plan, executeInterface, processEnvironment, type Services } from '../runtime/index.ts';
import { cliServices } from './services.ts';
import { fastpathDisabled, loadPlans } from './load-plans.ts';
import { err, paint } from './output.ts';
import { formatTests, REPORTERS, summaryLine, type Reporter, type TestResult } from './test-report.ts';

export interface TestOptions {
  'no-fastpath'?: boolean;
  reporter?: string;
  'pass-with-no-tests'?: boolean;
  cases?: string;
  'require-tests'?: boolean;
  record?: boolean;
  'from-run'?: string;
  server?: string;
  'admin-token-file'?: string;
}

export async function testConfigs(files: string[], o: TestOptions): Promise<number> {
  const fromRun = await import('./from-run.ts');
  const flags = fromRun.fromRunFlagProblem(o);
  if (flags) { err(`pipewright test: ${flags}`); return 2; }
  if (o['from-run'] !== undefined) return fromRun.fromRun(files, o);
  const reporter = (o.reporter ?? 'default') as Reporter;
  if (!REPORTERS.includes(reporter)) { err(`--reporter must be one of ${REPORTERS.join(', ')}; got ${o.reporter}`); return 2; }
  const started = new Date();
  const plans = await loadPlans(files, fastpathDisabled(o['no-fastpath']));
  if (!plans) return 1;
  const recordings = new CaseRecordings(o.record === true);
  let caseFiles = casesOf(files, plans, o.cases);
  if (!caseFiles) return 1;
  try { caseFiles = caseFiles.map((f) => recordings.prepare(f)); } catch (e) { err(`pipewright: ${(e as Error).message}`); return 1; }
  const withCases = new Set(caseFiles.flatMap((f) => f.cases.map((c) => `${c.config}.${c.iface}`)));
  const services = await cliServices();
  const results: TestResult[] = [];
  const report = (r: TestResult) => {
    results.push(r);
    const name = `${r.config}.${r.interface}${r.case === undefined ? '' : ` › ${r.case}`}`;
    if (r.problems.length) err(`${paint.red('✗')} ${name}\n${r.problems.map((p) => `    ${p}`).join('\n')}`);
    else err(`${paint.green('✓')} ${name}`);
  };
  plans.forEach((plan, n) => { if (!plan.interfaces.some((i) => tested(i) || withCases.has(`${plan.name}.${i.name}`))) err(`${paint.yellow('warning')} ${files[n]}: no interface has accepts.example, produces, tests or a test case: nothing to run`); });
  for (const [n, plan] of plans.entries()) {
    for (const i of plan.interfaces) {
      if (!tested(i)) continue;
      const t0 = performance.now();
      const problems = await checkInterface(plan, i, services);
      report({ config: plan.name, file: files[n]!, interface: i.name, problems, ms: performance.now() - t0 });
    }
  }
  await services.store?.close();
  // A recording run connects for real (its own dispatcher); any other seals the global one too.
  const unseal = caseFiles.length && !o.record ? sealGlobalDispatcher() : undefined;
  try {
    for (const f of caseFiles) {
      for (const c of f.cases) {
        const plan = plans.find((p) => p.name === c.config)!;
        const i = plan.interfaces.find((x) => x.name === c.iface)!;
        const t0 = performance.now();
        const problems = await recordings.run(f, c, (values, hooks) => runCase(plans, plan, i, c, values, { maxDelayMs: services.maxDelayMs }, hooks));
        report({ config: plan.name, file: f.file, interface: i.name, case: c.name, problems, ms: performance.now() - t0 });
      }
    }
  } finally { unseal?.(); }
  for (const file of recordings.save()) err(`recorded: ${file}`);
  if (o['require-tests']) {
    const untested = plans.flatMap((p, n) => p.interfaces.filter((i) => !tested(i) && !withCases.has(`${p.name}.${i.name}`)).map((i) => ({ p, i, file: files[n]! })));
    for (const { p, i, file } of untested) report({ config: p.name, file, interface: i.name, problems: [`untested (--require-tests): give it a case in ${beside(file)}, or accepts.example, produces or tests`], ms: 0 });
    if (untested.length) err(`untested: ${untested.map(({ p, i }) => `${p.name}.${i.name}`).join(', ')}`);
  }
  const summary = `${summaryLine(results)}\n`;
  if (reporter === 'default') process.stdout.write(summary);
  else { process.stdout.write(formatTests(reporter, results, { started })); err(summary.trimEnd()); }
  // A run that tested nothing fails (as vitest and jest do) unless asked not to: a CI step that
  // checks nothing must not look green.
  if (!results.length && !o['pass-with-no-tests']) { err('no test ran: give an interface a test case (<config>.tests.yaml), accepts.example, produces or tests, or pass --pass-with-no-tests'); return 1; }
  return results.some((t) => t.problems.length) ? 1 : 0;
}

const tested = (i: InterfacePlan) => !!(i.accepts?.example || i.produces || i.tests?.length);

/** `api.yaml` → `api.tests.yaml`. */
const beside = (file: string) => file.replace(/(\.ya?ml)?$/i, '.tests.yaml');

/** The cases to run: `--cases FILE` for every config given, else each config's own file beside it
 *  when there is one. Null after printing the problems of any. */
function casesOf(files: string[], plans: Plan[], given: string | undefined): CaseFile[] | null {
  const sets = given ? [{ file: given, plans }] : files.map((f, n) => ({ file: beside(f), plans: [plans[n]!] })).filter((s) => existsSync(s.file));
  const loaded = sets.map((s) => loadCases(s.file, s.plans));
  return loaded.every((l): l is CaseFile => l !== null) ? loaded : null;
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
