// Test helpers: a config as a fast-path plan (generated module imported from a temp folder) or an
// interpreted plan, served on a free port with a controllable environment.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../../runtime/plan.ts';
import type { Environment } from '../../runtime/scope.ts';
import { interpretConfig } from '../../runtime/interpret/plan.ts';
import { initJq } from '../../runtime/jq/engine.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { generateModule } from '../../compiler/codegen/module.ts';
import { compileConfig } from '../../compiler/project.ts';

const runtimeUrl = pathToFileURL(join(import.meta.dirname, '../../runtime/index.ts')).href;
let dir: string | undefined;
let counter = 0;

export function irOf(file: string, text?: string) {
  const c = compileConfig(file, text);
  if (!c.ok || !c.ir) throw new Error(`config does not compile:\n${c.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')}`);
  return c.ir;
}

export async function planOf(file: string, mode: 'compiled' | 'interpreted', text?: string): Promise<Plan> {
  await initJq();
  const ir = irOf(file, text);
  if (mode === 'interpreted') return interpretConfig(ir);
  dir ??= mkdtempSync(join(tmpdir(), 'pw-test-'));
  const target = join(dir, `${ir.name}_${++counter}.mts`);
  writeFileSync(target, await moduleText(ir));
  return ((await import(pathToFileURL(target).href)) as { plan: Plan }).plan;
}

// Generated modules are cached on disk: formatting one with prettier costs seconds, and a mutation run
// repeats every test per mutant. The key is the IR plus every compiler and runtime source (codegen calls
// a few runtime helpers) and prettier's version, so any change there regenerates. The cached text names
// a placeholder, not the runtime: each run imports the runtime it sits next to (Stryker's sandbox, a
// worktree). PIPEWRIGHT_PLAN_CACHE=off generates afresh (scripts/mutate.mjs, for files codegen imports).
const root = join(import.meta.dirname, '../..');
const cacheDir = join(tmpdir(), 'pipewright-plans'); // not node_modules/.cache: worktrees share node_modules
const placeholder = JSON.stringify('pipewright-test-runtime');
let sources: string | undefined;

async function moduleText(ir: ReturnType<typeof irOf>): Promise<string> {
  if (process.env.PIPEWRIGHT_PLAN_CACHE === 'off') return generateModule(ir, { runtime: runtimeUrl });
  sources ??= sourcesHash();
  const file = join(cacheDir, `${createHash('sha256').update(sources).update(JSON.stringify(ir)).digest('hex').slice(0, 40)}.mts`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = await generateModule(ir, { runtime: JSON.parse(placeholder) as string });
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`; // written whole, then renamed: a parallel reader never sees half
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }
  const parts = text.split(placeholder);
  if (parts.length !== 2) throw new Error(`cached module ${file} does not name the runtime placeholder once`);
  return parts.join(JSON.stringify(runtimeUrl));
}

function sourcesHash(): string {
  const h = createHash('sha256');
  // Resolved, not joined to root: Stryker's sandbox has no node_modules folder of its own.
  const prettier = join(dirname(createRequire(import.meta.url).resolve('prettier')), 'package.json');
  h.update((JSON.parse(readFileSync(prettier, 'utf8')) as { version: string }).version);
  for (const top of ['compiler', 'runtime']) {
    for (const f of (readdirSync(join(root, top), { recursive: true }) as string[]).filter((x) => x.endsWith('.ts')).sort()) {
      const path = join(root, top, f);
      h.update(`\0${relative(root, path)}\0`).update(readFileSync(path));
    }
  }
  return h.digest('hex');
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
