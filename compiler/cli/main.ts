// The `pipewright` command line.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { check } from './check.ts';
import { compile } from './compile.ts';
import { run } from './run.ts';
import { serve } from './serve.ts';
import { testConfigs } from './test-cmd.ts';
import { err } from './output.ts';

const USAGE = `usage:
  pipewright serve <config.yaml>... [--port N] [--host H] [--no-fastpath]
  pipewright compile <config.yaml>... [--out DIR] [--no-bundle]
  pipewright run <config.yaml> <interface> [--body JSON] [--param k=v]... [--no-fastpath]
  pipewright check <config.yaml>...
  pipewright test <config.yaml>... [--no-fastpath]
  pipewright schema`;

const OPTIONS = {
  port: { type: 'string' }, host: { type: 'string' }, out: { type: 'string' }, body: { type: 'string' },
  param: { type: 'string', multiple: true }, 'no-fastpath': { type: 'boolean' }, 'no-bundle': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  let parsed;
  try { parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true }); } catch (e) { err(`${(e as Error).message}\n${USAGE}`); return 2; }
  const { values: o, positionals: files } = parsed;
  const needFiles = (min: number) => { if (files.length < min) { err(USAGE); return false; } return true; };
  switch (cmd) {
    case 'serve': return needFiles(1) ? serve(files, o) : 2;
    case 'compile': return needFiles(1) ? compile(files, o) : 2;
    case 'run': return needFiles(2) ? run(files[0]!, files[1]!, o) : 2;
    case 'check': return needFiles(1) ? check(files) : 2;
    case 'test': return needFiles(1) ? testConfigs(files, o) : 2;
    case 'schema': process.stdout.write(readFileSync(fileURLToPath(new URL('../schema/config.schema.json', import.meta.url)), 'utf8')); return 0;
    case 'gen-types': { const { writeTypes } = await import('../schema/gen-types-cli.ts'); await writeTypes(); return 0; }
    default: err(USAGE); return cmd === undefined || o.help ? 0 : 2;
  }
}
