// Issue 30, section 4: a secret, variable or environment value the config reads with no
// `->default()` and that is not set stops the start (serve, --no-fastpath, the bundle) naming each
// one and where it is read; `check` warns; SERVICE__ALLOW_MISSING_VALUES=1 starts anyway.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { serveBundle } from '../support/bundle.ts';
import { cleanEnv, serveOutcome } from '../support/serve-cli.ts';
import { runCli } from '../support/test-cli.ts';

const stops: Array<() => unknown> = [];
afterAll(() => { for (const s of stops) s(); });

const CONFIG = `interfaces:
  approve:
    actions:
      - name: Link
        input: { link: "a|var::PUBLIC_URL|/approve", key: a|secret::SIGNING_KEY->default("none")| }
      - name: Who
        input: a|env::PW_TEST_OPERATOR|
`;
const dir = mkdtempSync(join(tmpdir(), 'pw-needs-'));
const file = join(dir, 'needs.yaml');
writeFileSync(file, CONFIG);
const clean = cleanEnv(['PW_TEST_OPERATOR']);
const serve = (args: string[], env: Record<string, string>) => serveOutcome(file, args, { ...clean, ...env }, stops);

describe('values a config reads without a fallback', () => {
  // A start of the CLI compiles the config first: seconds each on a loaded machine, so one start per test.
  const modes = [[[]], [['--no-fastpath']]] as string[][][];
  it.each(modes)('serve %j refuses to start naming each missing one', async (args) => {
    const refused = await serve(args, {});
    expect(refused).toMatchObject({ code: 1 });
    const err = (refused as { err: string }).err;
    expect(err).toContain('2 values the configs read are not set');
    expect(err).toContain('a|var::PUBLIC_URL| (SERVICE__VAR__PUBLIC_URL) in needs, interface "approve", action "Link", line 4');
    expect(err).toContain('a|env::PW_TEST_OPERATOR| (PW_TEST_OPERATOR) in needs, interface "approve", action "Who", line 6');
    expect(err).not.toContain('SIGNING_KEY'); // it has a default
    expect(err).not.toMatch(/\n\s+at /); // one message, no stack
  }, 60_000);

  it.each(modes)('serve %j starts when they are set', async (args) => {
    expect(await serve(args, { SERVICE__VAR__PUBLIC_URL: 'https://x', PW_TEST_OPERATOR: 'ops' })).toBe('listening');
  }, 60_000);

  it('serve starts anyway with SERVICE__ALLOW_MISSING_VALUES=1, and refuses another value of it', async () => {
    expect(await serve([], { SERVICE__ALLOW_MISSING_VALUES: '1' })).toBe('listening');
    expect(await serve([], { SERVICE__ALLOW_MISSING_VALUES: 'yes' })).toMatchObject({ code: 1, err: expect.stringContaining('SERVICE__ALLOW_MISSING_VALUES=yes is not 0 or 1') });
  }, 90_000);

  it('the bundle refuses the same way', async () => {
    await expect(serveBundle('needs.yaml', CONFIG, { ...clean }, stops)).rejects.toThrow(/a\|var::PUBLIC_URL\| \(SERVICE__VAR__PUBLIC_URL\) in needs, interface "approve", action "Link", line 4/);
    await expect(serveBundle('needs.yaml', CONFIG, { SERVICE__VAR__PUBLIC_URL: 'https://x', PW_TEST_OPERATOR: 'ops' }, stops)).resolves.toMatch(/^http:/);
  }, 60_000);

  it('check warns at each marker and exits 0', async () => {
    // Through main(argv) in this process, with none of the values set.
    for (const k of [...Object.keys(process.env).filter((n) => n.startsWith('SERVICE__')), 'PW_TEST_OPERATOR']) vi.stubEnv(k, undefined);
    const r = await runCli(['check', file]).finally(() => vi.unstubAllEnvs());
    expect(r.code).toBe(0);
    expect(r.err).toContain(`${file}:5:25: warning: a|var::PUBLIC_URL| is not set here (SERVICE__VAR__PUBLIC_URL): serve refuses to start without it`);
    expect(r.err).toContain(`${file}:7:16: warning: a|env::PW_TEST_OPERATOR| is not set here (PW_TEST_OPERATOR)`);
    expect(r.err).not.toContain('SIGNING_KEY| is not set'); // it has a default
    expect(r.err).toContain('(2 warnings)');
  });
});
