import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../compiler/schema/config-types.ts';
import { generateTypes } from '../../compiler/schema/gen-types.ts';

// Type-checked by tsc: a config written against the generated types.
export const sample = {
  interfaces: {
    orders: {
      method: 'GET',
      capture: { mode: 'errors', for_runs: 10 },
      actions: [
        { name: 'Fetch', http: { url: 'https://x', expect_status: ['2xx', 404] }, retry: { attempts: 3, on: ['5xx', 'timeout'] } },
        { name: 'Keep', input: 'a|Fetch|', post_transforms: [{ keep_attributes: ['id'] }, { parse_csv: { key: 'rows', json_path: '$.csv' } }] },
        { name: 'Count', state: { increment: { key: 'n', by: 1 } } },
      ],
    },
  },
  on_error: { interface: 'orders' },
  features: { compress: false },
} satisfies Config;

describe('config-types.ts', () => {
  it('matches what generateTypes() produces from config.schema.json (run: npx tsx compiler/schema/gen-types-cli.ts)', async () => {
    const checkedIn = readFileSync(new URL('../../compiler/schema/config-types.ts', import.meta.url), 'utf8');
    expect(checkedIn === (await generateTypes()), 'config-types.ts is stale: regenerate it').toBe(true);
  });

  it('is deterministic and carries the header', async () => {
    const [a, b] = await Promise.all([generateTypes(), generateTypes()]);
    expect(a).toBe(b);
    expect(a.startsWith('// Generated from config.schema.json by compiler/schema/gen-types.ts. Do not edit.\n')).toBe(true);
  });

  it('names the main shapes and marks deprecated fields', async () => {
    const ts = await generateTypes();
    for (const name of ['Config', 'Interface', 'Action', 'Retry', 'HttpRequest', 'Transform', 'Test', 'Assert', 'StateAction', 'OnError', 'Features']) {
      expect(ts).toMatch(new RegExp(`export interface ${name} \\{`));
    }
    expect(ts).not.toMatch(/\b(StringList|Duration|NumberOrMarker)\d+\b/);
    expect(ts).not.toMatch(/tsType/);
    expect(ts).toMatch(/@deprecated[^]*?\n\s+request_example\?: unknown;/);
  });
});
