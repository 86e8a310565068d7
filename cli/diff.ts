// `pipewright diff <old.yaml> <new.yaml>` or `pipewright diff <config.yaml> --base REV [--head REV]`:
// the API contract change between two versions of a config, each change classified, and the
// interfaces whose generated code changes. Exit 1 on a breaking change unless --allow-breaking.
import { execFileSync } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { compileConfig, diffConfigs, breakingCount, type Change, type Compiled, type ConfigDiff } from '../compiler/index.ts';
import { printDiagnostics } from './diagnostics.ts';
import { annotation } from './github-annotations.ts';
import { err, paint } from './output.ts';

export interface DiffOptions { base?: string; head?: string; format?: string; 'allow-breaking'?: boolean }

const FORMATS = ['text', 'json', 'github'] as const;
// A revision is a git name, never an option (`--output=...` would be an argument injection).
const REV = /^[A-Za-z0-9][A-Za-z0-9._/~^@{}:-]{0,200}$/;

export function diff(files: string[], o: DiffOptions): number {
  const format = o.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) { err(`--format must be one of ${FORMATS.join(', ')}`); return 2; }
  const sides = versions(files, o);
  if (typeof sides === 'string') { err(sides); return 2; }
  const [before, after] = sides.map((s) => ({ ...s, c: compileConfig(s.file, s.text) }));
  for (const side of [before!, after!]) {
    if (!side.c.ok || !side.c.ir) { printDiagnostics(side.c); err(`${side.label} does not compile`); return 2; }
  }
  const result = diffConfigs(before!.c.ir!, after!.c.ir!);
  const breaking = breakingCount(result.contract);
  if (format === 'json') process.stdout.write(`${JSON.stringify({ from: before!.label, to: after!.label, breaking, ...result }, null, 2)}\n`);
  else if (format === 'github') process.stdout.write(github(result, after!.c));
  else process.stdout.write(text(result, before!.label, after!.label));
  if (breaking && !o['allow-breaking']) {
    err(paint.red(`${breaking} breaking change${breaking === 1 ? '' : 's'} (--allow-breaking to accept)`));
    return 1;
  }
  return 0;
}

interface Side { file: string; text: string; label: string }

function versions(files: string[], o: DiffOptions): [Side, Side] | string {
  const read = (file: string): Side | string => {
    try { return { file, text: readFileSync(file, 'utf8'), label: file }; } catch (e) { return `cannot read ${file}: ${(e as Error).message}`; }
  };
  if (o.base === undefined) {
    if (files.length !== 2) return 'usage: pipewright diff <old.yaml> <new.yaml>, or pipewright diff <config.yaml> --base REV [--head REV]';
    const a = read(files[0]!); const b = read(files[1]!);
    return typeof a === 'string' ? a : typeof b === 'string' ? b : [a, b];
  }
  if (files.length !== 1) return 'usage: pipewright diff <config.yaml> --base REV [--head REV]';
  const file = files[0]!;
  const at = (rev: string): Side | string => {
    if (!REV.test(rev)) return `not a git revision: ${JSON.stringify(rev)}`;
    try {
      // `REV:./name` is the file at that revision, relative to the config's own folder.
      const text = execFileSync('git', ['show', `${rev}:./${basename(file)}`], { cwd: dirname(file), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
      return { file, text, label: `${file}@${rev}` };
    } catch (e) {
      return `cannot read ${file} at ${rev}: ${String((e as { stderr?: string }).stderr ?? (e as Error).message).trim()}`;
    }
  };
  const a = at(o.base); const b = o.head === undefined ? read(file) : at(o.head);
  return typeof a === 'string' ? a : typeof b === 'string' ? b : [a, b];
}

function text(r: ConfigDiff, from: string, to: string): string {
  const lines = [`API contract: ${from} -> ${to}`];
  if (!r.contract.length) lines.push('  no change');
  for (const c of r.contract) lines.push(`  ${c.level.padEnd(8)}  ${c.operation}${c.at ? `  ${c.at}` : ''}: ${c.message} [${c.id}]`);
  lines.push(r.behaviour.length ? `Generated code changes in ${r.behaviour.length} interface${r.behaviour.length === 1 ? '' : 's'}:` : 'Generated code: no interface changes');
  for (const b of r.behaviour) lines.push(`  ${b.interface}: ${b.change}${b.details.length ? ` (${b.details.join('; ')})` : ''}`);
  return `${lines.join('\n')}\n`;
}

// GitHub workflow commands (cli/github-annotations.ts).
function github(r: ConfigDiff, c: Compiled): string {
  const lineOf = lineByOperation(c);
  const kind = { breaking: 'error', warning: 'warning', info: 'notice' } as const;
  const out = r.contract.map((ch: Change) => {
    const line = lineOf.get(ch.operation);
    return annotation(kind[ch.level], { file: c.file, ...(line ? { line } : {}), title: `${ch.level} API change` }, `${ch.operation}${ch.at ? ` ${ch.at}` : ''}: ${ch.message} [${ch.id}]`);
  });
  for (const b of r.behaviour) out.push(annotation('notice', { file: c.file, title: 'generated code changes' }, `${b.interface}: ${b.change}${b.details.length ? ` (${b.details.join('; ')})` : ''}`));
  return out.length ? `${out.join('\n')}\n` : '';
}

function lineByOperation(c: Compiled): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of c.ir?.interfaces ?? []) {
    const path = i.route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of i.method.split(',')) m.set(`${method.trim().toUpperCase()} ${path}`, i.line);
  }
  return m;
}
