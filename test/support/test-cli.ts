// `pipewright test` (or any command: runCli) in this process (no CLI start-up to pay): its exit code
// and what it wrote. For tests of what a command does; a test of the process itself spawns it.
import { vi } from 'vitest';
import { testConfigs } from '../../cli/test-cmd.ts';

export type TestOptions = Parameters<typeof testConfigs>[1];

/** Runs the command in process; what it wrote to stdout and stderr, and its exit code. */
export function runTests(files: string[], o: TestOptions): Promise<{ code: number; out: string; err: string }> {
  return captured(() => testConfigs(files, o));
}

/** `pipewright <argv>` through cli/main.ts in process, as bin/pipewright.mjs calls it (for commands
 *  that write only through process.stdout/stderr: not `serve`, whose compile runs apart). Imported
 *  on first use: a file that only runs `test` does not load every command. */
export function runCli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return captured(async () => (await import('../../cli/main.ts')).main(argv));
}

async function captured(f: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const errs: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out.push(String(s)); return true; });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => { errs.push(String(s)); return true; });
  try { return { code: await f(), out: out.join(''), err: errs.join('') }; } finally { vi.restoreAllMocks(); }
}

/** The problems of each case by name (json reporter); none when the run wrote no report (a load error). */
export async function caseProblems(files: string[], o: TestOptions): Promise<{ code: number; err: string; by: Record<string, string[]> }> {
  const r = await runTests(files, { ...o, reporter: 'json' });
  if (!r.out) return { code: r.code, err: r.err, by: {} };
  const doc = JSON.parse(r.out) as { tests: Array<{ case?: string; interface: string; problems: string[] }> };
  return { code: r.code, err: r.err, by: Object.fromEntries(doc.tests.map((t) => [t.case ?? t.interface, t.problems])) };
}
