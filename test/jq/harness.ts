// Runs one jq filter three ways (compiled fast path, wasm engine, the real jq binary) for the corpus tests.
import { spawn } from 'node:child_process';
import { compileJq } from '../../compiler/jq/compile.ts';
import { jqAll } from '../../runtime/jq/engine.ts';
import * as ops from '../../runtime/jq/ops.ts';
import { JqBound } from '../../runtime/jq/bounds.ts';

export const JQ_BIN = '/usr/bin/jq';

/** Outputs as compact JSON, or the error message. */
export type Outcome = { ok: string } | { err: string };

export function outcome(run: () => unknown[]): Outcome {
  try {
    return { ok: JSON.stringify(run()) };
  } catch (e) {
    // A crash in our code is a test failure, not a jq error; a bound (runtime/jq/bounds.ts) is an outcome.
    if (!(e instanceof ops.JqError) && !(e instanceof JqBound)) throw e;
    return { err: e.message };
  }
}

/** Evaluates compiled source the way generated modules do (helpers in scope as `jq`). */
export function load(code: string): (input: unknown) => unknown[] {
  return new Function('jq', `'use strict'; return (${code});`)(ops) as (input: unknown) => unknown[];
}

export function compiled(filter: string): ((input: unknown) => unknown[]) | null {
  const c = compileJq(filter);
  return c ? load(c.code) : null;
}

export const engine = (filter: string, input: unknown): Outcome => outcome(() => jqAll(filter, input));

/**
 * The jq binary on all inputs in one process: each input yields one line, {ok: [outputs]} or {err}.
 * A compile error makes every input an error.
 */
export function binary(filter: string, inputs: unknown[]): Promise<Outcome[]> {
  const wrapped = `try ([(\n${filter}\n)] | {ok: .}) catch {err: .}`;
  return new Promise((resolve, reject) => {
    const p = spawn(JQ_BIN, ['-c', wrapped], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => { out += d; });
    p.stderr.on('data', (d: Buffer) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => {
      if (code === 3) return resolve(inputs.map(() => ({ err: `compile error: ${err.trim()}` })));
      const lines = out.split('\n').filter(Boolean);
      if (lines.length !== inputs.length) return reject(new Error(`jq ${filter}: ${lines.length} results for ${inputs.length} inputs: ${err}`));
      resolve(lines.map((l) => {
        const r = JSON.parse(l) as { ok?: unknown[]; err?: unknown };
        return 'ok' in r ? { ok: JSON.stringify(r.ok) } : { err: String(JSON.stringify(r.err)) };
      }));
    });
    p.stdin.on('error', () => {}); // jq exits early on compile errors
    p.stdin.end(inputs.map((i) => JSON.stringify(i)).join('\n'));
  });
}

/** Same result: equal outputs, or both errors (messages may differ between jq versions). */
export function sameResult(a: Outcome, b: Outcome): boolean {
  return 'ok' in a ? 'ok' in b && a.ok === b.ok : 'err' in b;
}
