// The wasm jq engine: loading, errors, robustness under load, silence, crash recovery, bundling.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initJq, JqError, jqAll } from '../../runtime/jq/engine.ts';
import { sha } from '../../runtime/jq/vendor/jq-wasm.mjs';

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
    expect(e.message).toBe('Cannot index number with string "a"');
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
        case 1: expect(thrown(() => jqAll('.a', n)).message).toBe('Cannot index number with string "a"'); break;
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

  it('replaces a crashed wasm instance at once', () => {
    const e = thrown(() => jqAll('"ab" * 10000000000 | length', null)); // out of wasm memory
    expect(e.message).toMatch(/^jq engine crashed/);
    expect(jqAll('. + 1', 1)).toEqual([2]);
  });
});

describe('bundling', () => {
  it('vendored jq-web matches the installed package (else run node runtime/jq/vendor/gen.mjs)', () => {
    const req = createRequire(import.meta.url);
    const hash = createHash('sha256').update(readFileSync(req.resolve('jq-web/jq.js'), 'utf8')).update(readFileSync(req.resolve('jq-web/jq.wasm')));
    expect(hash.digest('hex').slice(0, 16)).toBe(sha);
  });

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
      expect(stdout).toBe('[[2,4,6]]\nJqError: Cannot index number with string "a"\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
