// Test helpers: a config as a fast-path plan (generated module imported from a temp folder) or an
// interpreted plan, served on a free port with a controllable environment.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../../runtime/plan.ts';
import type { Environment } from '../../runtime/scope.ts';
import type { RequestData } from '../../runtime/run-state.ts';
import { interpretConfig } from '../../runtime/interpret/plan.ts';
import { initJq } from '../../runtime/jq/engine.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { generateModule } from '../../compiler/codegen/module.ts';
import { compileConfig } from '../../compiler/project.ts';
import { lowerConfig } from '../../compiler/lower/config.ts';
import { parseYamlWithPositions } from '../../compiler/source/yaml.ts';
import type { Config } from '../../compiler/schema/config-types.ts';

const runtimeUrl = pathToFileURL(join(import.meta.dirname, '../../runtime/index.ts')).href;
let dir: string | undefined;
let counter = 0;

export function irOf(file: string, text?: string) {
  const c = compileConfig(file, text);
  if (!c.ok || !c.ir) throw new Error(`config does not compile:\n${c.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
  return c.ir;
}

/** The IR of a config lowered without `check`'s lints: what a config built without check would run
 *  (tests of runtime confinement, and of runtime features whose configs check refuses). */
export function uncheckedIrOf(file: string, text: string) {
  const { value, locate } = parseYamlWithPositions(file, text);
  return lowerConfig(file.replace(/\.ya?ml$/, ''), file, value as Config, (p) => locate(p).line);
}

export async function planOf(file: string, mode: 'compiled' | 'interpreted', text?: string, o: { unchecked?: boolean } = {}): Promise<Plan> {
  await initJq();
  const ir = o.unchecked && text !== undefined ? uncheckedIrOf(file, text) : irOf(file, text);
  if (mode === 'interpreted') return interpretConfig(ir);
  dir ??= mkdtempSync(join(tmpdir(), 'pw-test-'));
  const target = join(dir, `${ir.name}_${++counter}.mts`);
  writeFileSync(target, await generateModule(ir, { runtime: runtimeUrl }));
  return ((await import(pathToFileURL(target).href)) as { plan: Plan }).plan;
}

/** A POST to `path` with `body` as JSON, as the HTTP server hands a run its request. */
export function postRequest(path: string, body: unknown = null, o: { params?: Record<string, string>; headers?: Record<string, string> } = {}): RequestData {
  return { method: 'POST', path, params: o.params ?? {}, headers: o.headers ?? {}, body, rawBody: body === null ? '' : JSON.stringify(body) };
}

/** A deterministic environment: variables from the map, uuids from a counter. */
export function testEnv(vars: Record<string, string> = {}, secrets: Record<string, string> = {}): Environment {
  let n = 0;
  return {
    secret: (k) => secrets[k],
    variable: (k) => vars[k],
    env: (k) => process.env[k],
    uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  };
}

export async function serveOn(plans: Plan[], env: Environment): Promise<{ app: FastifyInstance; url: string }> {
  const app = buildApp(plans, { env });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}
