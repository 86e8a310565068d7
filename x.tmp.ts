import { executeInterface } from './runtime/exec/run.ts';
import { systemClock } from './runtime/services.ts';
import { FORMS, formBody, formConfig } from './bench/scenarios/target-forms.ts';
import { planOf, postRequest, testEnv } from './test/support/plans.ts';
for (const f of FORMS) {
  const out: string[] = [];
  for (const mode of ['compiled', 'interpreted'] as const) {
    const plan = await planOf('form.yaml', mode, formConfig(f));
    const i = plan.interfaces[0]!;
    const body = formBody(f);
    const go = () => executeInterface(plan, i, postRequest(i.route, body), { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
    for (let k = 0; k < 200; k++) await go();
    const t0 = process.cpuUsage();
    for (let k = 0; k < 500; k++) await go();
    const c = process.cpuUsage(t0);
    out.push(`${mode} ${((c.user + c.system) / 500).toFixed(0)}µs`);
  }
  console.log(f.slug.padEnd(22), out.join('  '));
}
