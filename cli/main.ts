// The `pipewright` command line: the composition root. It uses the compiler through compiler/index.ts
// and the runtime through runtime/index.ts, nothing deeper.
import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { err } from './output.ts';

const USAGE = `usage:
  pipewright init [dir]
  pipewright --version
  pipewright serve <config.yaml>... [--port N] [--host H] [--no-fastpath] [--watch]
  pipewright compile <config.yaml>... [--out DIR] [--no-bundle] [--one-server] [--inspector] [--tracing]
  pipewright run <config.yaml> <interface> [--body JSON] [--param k=v]... [--no-fastpath]
  pipewright check <config.yaml>... [--format text|json|sarif|github]
  pipewright audit <config.yaml>... [--fail-on low|medium|high] [--format text|json]
  pipewright test <config.yaml>... [--no-fastpath] [--reporter default|json|junit|tap] [--pass-with-no-tests] [--cases FILE] [--require-tests] [--record]
  pipewright test <config.yaml> --from-run <run id> [--server URL [--admin-token-file FILE]] [--cases FILE]
  pipewright diff <old.yaml> <new.yaml> | <config.yaml> --base REV [--head REV] [--format text|json|github] [--allow-breaking]
  pipewright schema`;

const OPTIONS = {
  port: { type: 'string' }, host: { type: 'string' }, out: { type: 'string' }, body: { type: 'string' },
  param: { type: 'string', multiple: true }, 'no-fastpath': { type: 'boolean' }, 'no-bundle': { type: 'boolean' }, 'one-server': { type: 'boolean' }, inspector: { type: 'boolean' }, tracing: { type: 'boolean' }, watch: { type: 'boolean' },
  'fail-on': { type: 'string' }, format: { type: 'string' }, base: { type: 'string' }, head: { type: 'string' },
  'allow-breaking': { type: 'boolean' }, reporter: { type: 'string' }, 'pass-with-no-tests': { type: 'boolean' }, cases: { type: 'string' }, 'require-tests': { type: 'boolean' },
  record: { type: 'boolean' }, 'from-run': { type: 'string' }, server: { type: 'string' }, 'admin-token-file': { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

export async function main(argv: string[]): Promise<number> {
  try {
    return await command(argv);
  } catch (e) {
    // A setting the user fixes (a SERVICE__SECRET__<NAME>_FILE that cannot be read): one line, no stack.
    // By name: this module loads no runtime to compare classes with.
    if ((e as Error)?.constructor?.name !== 'StartupError') throw e;
    err(`pipewright: ${(e as Error).message}`);
    return 1;
  }
}

async function command(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === '--version' || cmd === '-v') { process.stdout.write(`${(await import('./version.ts')).version()}\n`); return 0; }
  let parsed;
  try { parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true }); } catch (e) { err(`${(e as Error).message}\n${USAGE}`); return 2; }
  const { values: o } = parsed;
  const files = configFiles(cmd, parsed.positionals);
  const needFiles = (min: number) => { if (files.length < min) { err(USAGE); return false; } return true; };
  switch (cmd) {
    // Each command loads what it uses when it runs: check and compile never load the whole runtime,
    // and serve's own process loads no compiler (cli/serve.ts compiles in another process).
    // init takes a folder and no option (one given would be ignored).
    case 'init': return files.length > 1 || Object.keys(o).length ? (err(USAGE), 2) : (await import('./init.ts')).init(files[0] ?? '.');
    case 'serve': return needFiles(1) ? (await import('./serve.ts')).serve(files, o) : 2;
    case 'compile': return needFiles(1) ? (await import('./compile.ts')).compile(files, o) : 2;
    case 'run': return needFiles(2) ? (await import('./run.ts')).run(files[0]!, files[1]!, o) : 2;
    case 'check': return needFiles(1) ? (await import('./check.ts')).check(files, o) : 2;
    case 'audit': return needFiles(1) ? (await import('./audit.ts')).audit(files, o) : 2;
    case 'test': return needFiles(1) ? (await import('./test-cmd.ts')).testConfigs(files, o) : 2;
    case 'diff': return needFiles(1) ? (await import('./diff.ts')).diff(files, o) : 2;
    case 'schema': process.stdout.write(readFileSync((await import('../compiler/index.ts')).schemaFile, 'utf8')); return 0;
    case 'gen-types': await (await import('../compiler/index.ts')).writeTypes(); return 0;
    default: err(USAGE); return cmd === undefined || o.help ? 0 : 2;
  }
}

/** A test cases file (`api.tests.yaml`) is not a config, yet a glob such as `configs/*.yaml` takes it
 *  in: `test` runs the config beside it (which reads it), every other command leaves it out, saying so. */
function configFiles(cmd: string | undefined, positionals: string[]): string[] {
  const cases = /\.tests\.ya?ml$/;
  if (cmd === 'run' || !positionals.some((f) => cases.test(f))) return positionals;
  const files: string[] = [];
  for (const f of positionals) {
    if (!cases.test(f)) { if (!files.includes(f)) files.push(f); continue; }
    const config = f.replace(cases, (m) => m.replace('.tests', ''));
    if (cmd === 'test' && existsSync(config)) { if (!files.includes(config)) files.push(config); continue; }
    err(`note: ${f} is a test cases file, not a config: left out (pipewright test reads it beside ${config})`);
  }
  return files;
}
