// The README is short and starts with the two commands for a fresh machine; its config example is
// one `check` passes, and the commands name files and scripts that exist.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../schema/helpers.ts';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };

describe('README', () => {
  it('is at most ~150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('starts with the two commands: install and serve the quickstart, and the tests', () => {
    const first = /^# pipewright\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const lines = first.trim().split('\n').map((l) => l.replace(/\s+#.*$/, ''));
    expect(lines).toEqual(['npm install && npx pipewright serve fixtures/quickstart.yaml', 'npm test']);
    expect(existsSync(new URL('fixtures/quickstart.yaml', root))).toBe(true);
    expect(pkg.scripts.test).toBeDefined();
  });

  it("its config example passes check", () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(yaml).toContain('interfaces:');
    expect(check(yaml).filter((d) => d.severity === 'error')).toEqual([]);
  });
});
