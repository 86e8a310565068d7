// What a bundle runs while `pipewright compile` writes its code cache (compiler/bundle/loader.ts):
// the server's routes built as a start builds them, so V8's cache holds that code too (fastify's and
// the router's, run once per route). No port, store, log, timer or setting is touched. A config its
// start would refuse (two interfaces on one route) is refused by that start, with its message.
import type { Plan } from '../plan.ts';
import { buildApp } from './app.ts';

export async function warmUp(plans: Plan[]): Promise<void> {
  try {
    const app = buildApp(plans, { warn: () => {} });
    await app.ready();
    await app.close();
  } catch {
    // The cache is written with what ran until here.
  }
}
