// Serving a config with chosen services (store, log, deadline) on a free port, logs captured as
// parsed JSON lines, and an environment whose secrets are known to the redactor.
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../../runtime/plan.ts';
import type { Environment } from '../../runtime/scope.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { createLogger, type Logger } from '../../runtime/log/logger.ts';
import { redactorOf } from '../../runtime/values/redact.ts';
import { testEnv } from '../support/plans.ts';

/** A parsed line: pino's numeric level (30 info, 40 warn, 50 error). */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** testEnv plus sensitiveValues, as processEnvironment gives from SERVICE__SECRET__/VAR__ values. */
export function secretEnv(vars: Record<string, string>, secrets: Record<string, string>): Environment {
  return { ...testEnv(vars, secrets), sensitiveValues: () => Object.values(secrets) };
}

export function capturedLog(env: Environment): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = createLogger({ level: 'debug', pretty: false }, redactorOf(env), { write: (s: string) => { lines.push(JSON.parse(s) as LogLine); } });
  return { log, lines };
}

export async function serveWith(plans: Plan[], env: Environment, services: Partial<Services> = {}): Promise<{ app: FastifyInstance; url: string }> {
  const app = buildApp(plans, { env, services: { clock: systemClock, ...services }, warn: () => {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

/** Polls until `f` returns something (no fixed sleeps; the test's own timeout bounds it). */
export async function until<T>(f: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}
