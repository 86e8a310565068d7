// SERVICE__SECRET__<NAME>_FILE and SERVICE__VAR__<NAME>_FILE (issue 31, part 5): the value is the
// file's text with one trailing line ending dropped; a file that cannot be read, an empty path, both
// forms set or an oversized file stop the start with the setting and the path, never the content;
// values from files are redacted like any secret, their paths are not values.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processEnvironment } from '../../runtime/environment.ts';
import { withFileValues } from '../../runtime/file-values.ts';
import { prepareGeneration } from '../../runtime/server/generation.ts';
import { StartupError } from '../../runtime/server/startup-errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-file-values-'));
const file = (name: string, text: string | Buffer) => { const p = join(dir, name); writeFileSync(p, text); return p; };

describe('values from files', () => {
  it('reads secrets and variables, dropping one trailing line ending only', () => {
    const env = processEnvironment({
      SERVICE__SECRET__TOKEN_FILE: file('token', 's3cr3t-token\n'),
      SERVICE__SECRET__CRLF_FILE: file('crlf', 'windows-value\r\n'),
      SERVICE__VAR__BASE_FILE: file('base', 'https://api.example'),
      SERVICE__VAR__PEM_FILE: file('pem', 'line one\nline two\n\n'),
    });
    expect(env.secret('TOKEN')).toBe('s3cr3t-token');
    expect(env.secret('CRLF')).toBe('windows-value');
    expect(env.variable('BASE')).toBe('https://api.example');
    expect(env.variable('PEM')).toBe('line one\nline two\n');
    // A value from a file is redacted like one from the environment; the path is not a value.
    const sensitive = env.sensitiveValues!();
    expect(sensitive).toContain('s3cr3t-token');
    expect(sensitive.some((v) => v.startsWith(dir))).toBe(false);
  });

  it('refuses, naming the setting and the path but never the content', () => {
    const secret = file('present', 'do-not-show');
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ SERVICE__SECRET__KEY_FILE: join(dir, 'absent') }, /^SERVICE__SECRET__KEY_FILE: cannot read .*absent \(ENOENT\): mount the file or unset SERVICE__SECRET__KEY_FILE$/],
      [{ SERVICE__SECRET__KEY_FILE: dir }, /SERVICE__SECRET__KEY_FILE: cannot read .* \(EISDIR\)/],
      [{ SERVICE__VAR__KEY_FILE: '' }, /^SERVICE__VAR__KEY_FILE is empty/],
      [{ SERVICE__SECRET__KEY: 'x', SERVICE__SECRET__KEY_FILE: secret }, /^SERVICE__SECRET__KEY and SERVICE__SECRET__KEY_FILE are both set: set one of them$/],
      [{ SERVICE__SECRET__BIG_FILE: file('big', Buffer.alloc(1024 * 1024 + 1, 97)) }, /larger than 1 MiB/],
    ];
    for (const [env, message] of cases) {
      let thrown: unknown;
      try { withFileValues(env); } catch (e) { thrown = e; }
      expect(thrown).toBeInstanceOf(StartupError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).not.toContain('do-not-show');
    }
  });

  it('a missing file stops a start before anything is opened, and a command with one line', () => {
    expect(() => prepareGeneration([], { SERVICE__SECRET__KEY_FILE: join(dir, 'gone') })).toThrow(/SERVICE__SECRET__KEY_FILE: cannot read/);
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'check', 'fixtures/quickstart.yaml'], { encoding: 'utf8', env: { ...process.env, SERVICE__SECRET__KEY_FILE: join(dir, 'gone') } });
    expect([r.status, r.stderr.trim()]).toEqual([1, `pipewright: SERVICE__SECRET__KEY_FILE: cannot read ${join(dir, 'gone')} (ENOENT): mount the file or unset SERVICE__SECRET__KEY_FILE`]);
  }, 60_000);
});
