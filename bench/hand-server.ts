// The hand-written baseline of one scenario as its own process. bench/run.ts bundles a two-line
// entry calling this per scenario, so no TypeScript loader runs in the measured process.
import Fastify from 'fastify';
import type { Scenario } from './scenario.ts';

export async function serveHandWritten(scenario: Scenario, upstream: string): Promise<void> {
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  await scenario.handWritten(app, { upstream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  process.stdout.write(`hand-written: listening on http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}\n`);
  process.on('SIGTERM', () => { void app.close().then(() => process.exit(0)); });
}
