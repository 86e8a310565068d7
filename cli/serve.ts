// `pipewright serve <config.yaml>... [--port N] [--host H] [--no-fastpath]`
import { listen, StartupError } from '../runtime/index.ts';
import { fastpathDisabled, loadPlans } from './load-plans.ts';

export async function serve(files: string[], o: { port?: string; host?: string; 'no-fastpath'?: boolean }): Promise<number> {
  const plans = await loadPlans(files, fastpathDisabled(o['no-fastpath']));
  if (!plans) return 1;
  try {
    await listen(plans, { port: Number(o.port ?? process.env.PORT ?? 8080), host: o.host ?? '127.0.0.1' });
  } catch (e) {
    if (!(e instanceof StartupError)) throw e;
    process.stderr.write(`pipewright: ${e.message}\n`);
    return 1;
  }
  return await new Promise<number>(() => {});
}
