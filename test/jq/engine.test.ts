// The wasm jq engine: loading, errors, robustness under load, silence, crash recovery, bundling.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initJq, JqError, jqAll, jqRunText } from '../../runtime/jq/engine.ts';
import { configureJqBounds, JqBound } from '../../runtime/jq/bounds.ts';

beforeAll(() => initJq());
afterEach(() => vi.restoreAllMocks());

function thrown(f: () => unknown): JqError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(JqError);
    return e as JqError;
  }
  throw new Error('expected a JqError');
}

describe('jqAll', () => {
  it('returns all outputs, including none and arrays as single outputs', () => {
    expect(jqAll('.[]', [1, [2], { a: 3 }])).toEqual([1, [2], { a: 3 }]);
    expect(jqAll('[.[]]', [1, 2])).toEqual([[1, 2]]);
    expect(jqAll('empty', 1)).toEqual([]);
    expect(jqAll('.a', undefined)).toEqual([null]);
    expect(jqAll('-1, -.', 2)).toEqual([-1, -2]); // a leading '-' is not read as an option
    expect(jqAll('.a # comment', { a: 1 })).toEqual([1]);
  });

  it('initJq is idempotent', async () => {
    await Promise.all([initJq(), initJq()]);
    await initJq();
    expect(jqAll('1', null)).toEqual([1]);
  });

  it('reports compile errors with jq\'s message, and keeps reporting them', () => {
    const e = thrown(() => jqAll('.a[', null));
    expect(e.kind).toBe('compile');
    expect(e.message).toMatch(/^syntax error, unexpected end of file/);
    expect(thrown(() => jqAll('.a[', 1)).message).toBe(e.message);
    expect(thrown(() => jqAll('nosuch(1)', 1)).message).toMatch(/nosuch\/1 is not defined/);
  });

  it('reports runtime errors with jq\'s message and value', () => {
    const e = thrown(() => jqAll('.a', 5));
    expect(e.kind).toBe('runtime');
    expect(e.message).toBe('Cannot index number with string ("a")');
    const v = thrown(() => jqAll('error({a: 1})', null));
    expect(v.message).toBe('{"a":1} (not a string)');
    expect(v.value).toEqual({ a: 1 });
    expect(thrown(() => jqAll('error("multi\\nline")', null)).message).toBe('multi\nline');
    expect(thrown(() => jqAll('"bye" | halt_error', null)).message).toBe('bye');
    for (const input of [null, 1]) expect(thrown(() => jqAll('"bye" | halt_error(3)', input)).kind).toBe('runtime'); // exit 3
    expect(thrown(() => jqAll('-(.a[', null)).message).toMatch(/^syntax error/);
    // With input numbers that make the engine prefix the program, the message is still the program's own.
    expect(thrown(() => jqAll('-(.b[', { n: 1e-7 })).message).toBe(thrown(() => jqAll('-(.a[', null)).message.replace('.a[', '.b['));
  });

  it('prints nothing and leaves process.exitCode alone', () => {
    const spies = [vi.spyOn(console, 'warn'), vi.spyOn(console, 'error'), vi.spyOn(console, 'log'), vi.spyOn(process.stderr, 'write')];
    const exitCode = process.exitCode;
    expect(jqAll('debug | stderr | . + 1', 1)).toEqual([2]);
    thrown(() => jqAll('.a', 1));
    thrown(() => jqAll('.a[', 1));
    expect(process.exitCode).toBe(exitCode);
    for (const s of spies) expect(s).not.toHaveBeenCalled();
  });

  it('formats input numbers like computed ones (as the compiled code does)', () => {
    expect(jqAll('.[] | tostring', [1e-7, 0.00001, 1e17, 1e21, 1.5, 100])).toEqual(['1e-07', '1e-05', '1e+17', '1e+21', '1.5', '100']);
    expect(jqAll('"\\(.)"', 1e-7)).toEqual(['1e-07']);
  });

  it('reads lone surrogates as U+FFFD instead of failing', () => {
    expect(jqAll('.', { a: 'x\ud800y', b: '\\ud800', c: '😀' })).toEqual([{ a: 'x\ufffdy', b: '\\ud800', c: '😀' }]);
  });

  it('stays correct over many calls', () => {
    const big = Array.from({ length: 300 }, (_, i) => ({ i, s: 'x'.repeat(i % 50) }));
    for (let n = 0; n < 2000; n++) {
      switch (n % 4) {
        case 0: expect(jqAll('.a + 1', { a: n })).toEqual([n + 1]); break;
        case 1: expect(thrown(() => jqAll('.a', n)).message).toBe('Cannot index number with string ("a")'); break;
        case 2: expect(jqAll('[.[] | select(.i % 7 == 0) | .i] | length', big)).toEqual([43]); break;
        default: expect(jqAll('"\\(.)-" * 3', String(n))).toEqual([`${n}-${n}-${n}-`]);
      }
    }
  });

  it('serves interleaved async callers', async () => {
    const worker = async (w: number): Promise<void> => {
      for (let n = 0; n < 50; n++) {
        await new Promise((r) => setImmediate(r));
        expect(jqAll('{w: .w, n: (.n * 2)}', { w, n })).toEqual([{ w, n: n * 2 }]);
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, w) => worker(w)));
  });

  it('names the memory limit (a bound: 422) and replaces the instance at once', () => {
    configureJqBounds({ SERVICE__JQ_TIMEOUT_MS: '60000' }); // the memory limit, not the time bound
    try {
      const oom = (f: () => unknown) => { try { f(); } catch (e) { expect(e).toBeInstanceOf(JqBound); return e as JqBound; } throw new Error('no error'); };
      const e = oom(() => jqAll('"ab" * 1000000000 | length', null));
      expect([e.message, e.status]).toEqual(['jq engine: out of memory (limit 1024 MB)', 422]);
      expect(jqAll('. + 1', 1)).toEqual([2]);
      expect(oom(() => jqAll('def f: [f]; f', null)).message).toBe('jq engine: out of memory (limit 1024 MB)');
      expect(jqAll('. + 1', 2)).toEqual([3]);
    } finally {
      configureJqBounds({});
    }
  });

  it('is jq 1.8: CVE-2025-48060 answers with an error value, new builtins exist', () => {
    expect(jqAll('try 0[implode] catch .', null)).toEqual(['implode input must be an array']);
    expect(jqAll('have_decnum, ([1, 2] | add(.[]))', null)).toEqual([true, 3]);
    expect(jqAll('"  x " | trim, ltrimstr(" ")', null)).toEqual(['x', ' x ']);
  });

  it('answers at native jq\'s depth (10,000) and names the limit beyond it', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    for (const n of [60, 5000, 10000]) {
      expect(jqRunText('.', deep(n)).outputs, String(n)).toEqual([deep(n)]);
      expect(jqRunText('tojson | length', deep(n)).outputs).toEqual([String(2 * n)]);
    }
    expect(jqRunText('.', deep(10001)).error?.message).toMatch(/^jq cannot read the input: Exceeds depth limit for parsing .*\(jq reads at most 10000 levels of nesting\)$/);
    expect(jqAll('reduce range(9999) as $_ ([]; [.]) | tojson | length', null)).toEqual([20000]);
    // A request body that deep: JSON.stringify cannot write it, the engine still reads it.
    let body: unknown = { a: 1 };
    for (let i = 0; i < 9999; i++) body = [body];
    expect(jqAll('tojson | length', body)).toEqual([20005]);
    expect(jqAll('try (reduce range(10001) as $_ ([]; [.]) as $x | $x | contains($x)) catch .', null)).toEqual(['Containment check too deep']);
    expect(jqAll('. + 1', 1)).toEqual([2]);
  });

  it('keeps the outputs before an error on the error, not in the result', () => {
    const e = thrown(() => jqAll('1, 2, error("x"), 3', null));
    expect(e.message).toBe('x');
    expect((e as JqError & { outputs: unknown[] }).outputs).toEqual([1, 2]);
  });
});

describe('bundling', () => {
  it('bundles into one .mjs that runs without node_modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-jq-'));
    try {
      const entry = join(dir, 'entry.ts');
      const engine = new URL('../../runtime/jq/engine.ts', import.meta.url).pathname;
      writeFileSync(entry, `import { initJq, jqAll } from ${JSON.stringify(engine)};
await initJq();
console.log(JSON.stringify(jqAll('[.[] | . * 2]', [1, 2, 3])));
try { jqAll('.a', 1); } catch (e) { console.log(e.name + ': ' + e.message); }`);
      const out = join(dir, 'out.mjs');
      await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent' });
      rmSync(entry);
      const stdout = execFileSync(process.execPath, [out], { cwd: dir, encoding: 'utf8' });
      expect(stdout).toBe('[[2,4,6]]\nJqError: Cannot index number with string (\"a\")\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
