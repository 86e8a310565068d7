// What every side-by-side benchmark starts: a scenario by name, the upstream, the hand-written server
// and the compiled config, as plain JavaScript for helper processes (no TypeScript loader in a
// measured process). Used by run.ts, profile.ts, cpu-per-req.ts and memory.ts.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Scenario } from './scenario.ts';
import { startServer, timeCommand, type Server } from './proc.ts';
import { buildDir, cli } from './paths.ts';

/** bench/scenarios/<name>.ts, or a generated family's member (`form-items`: bench/scenarios/target-forms.ts). */
export async function scenarioNamed(name: string): Promise<Scenario> {
  const found = (await allScenarios()).find((s) => s.name === name);
  if (!found) throw new Error(`no scenario named ${name}`);
  return found;
}

/** Every scenario under bench/scenarios/ (a file's `scenario`, a family's `scenarios`), by file name. */
export async function allScenarios(): Promise<Scenario[]> {
  const dir = join(import.meta.dirname, 'scenarios');
  const out: Scenario[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    const m = (await import(pathToFileURL(join(dir, f)).href)) as { scenario?: Scenario; scenarios?: Scenario[] };
    if (m.scenario) out.push(m.scenario);
    if (m.scenarios) out.push(...m.scenarios);
  }
  return out;
}

/** `contents` (TypeScript) bundled into buildDir/<name>.mjs. */
export async function buildScript(name: string, contents: string): Promise<string> {
  mkdirSync(buildDir, { recursive: true });
  const outfile = join(buildDir, `${name}.mjs`);
  const entry = join(buildDir, `${name}-entry.ts`);
  writeFileSync(entry, contents);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'error' });
  return outfile;
}

/** The local upstream every scenario's config calls (bench/upstream.ts). */
export async function startUpstream(): Promise<Server> {
  return startServer('upstream', process.execPath, [await buildScript('upstream', `import "../upstream.ts";\n`)]);
}

/** The scenario's hand-written fastify + undici server; run it with the upstream's URL as argument. */
export function handWrittenScript(s: Scenario): Promise<string> {
  const pick = s.family
    ? `import { scenarios } from ${JSON.stringify(`../scenarios/${s.family}.ts`)};\nconst scenario = scenarios.find((x) => x.name === ${JSON.stringify(s.name)})!;\n`
    : `import { scenario } from ${JSON.stringify(`../scenarios/${s.name}.ts`)};\n`;
  return buildScript(`hand-${s.name}`, `${pick}import { serveHandWritten } from "../hand-server.ts";\nawait serveHandWritten(scenario, process.argv[2]);\n`);
}

/** The scenario's config written under `dir` and compiled there: its path and its bundle's. */
export async function compiledScenario(s: Scenario, dir: string): Promise<{ config: string; bundle: string }> {
  mkdirSync(dir, { recursive: true });
  const file = s.name.replace(/-/g, '_');
  const config = join(dir, `${file}.yaml`);
  writeFileSync(config, s.config);
  await timeCommand(process.execPath, [cli, 'compile', config, '--out', join(dir, 'out')]);
  return { config, bundle: join(dir, 'out', file, 'server.mjs') };
}

/** `--also name=rest` (a saved bundle served as one more way, A/B against a change): [name, rest]. */
export function splitAlso(a: string): [string, string] {
  const at = a.indexOf('=');
  if (at < 1) throw new Error(`--also ${a}: expected name=path/to/server.mjs`);
  return [a.slice(0, at), a.slice(at + 1)];
}
