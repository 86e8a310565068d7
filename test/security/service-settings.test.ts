// Issue 29 (5): every SERVICE__* setting is validated at start like the others: a value that would be
// read as something else stops the start with one line naming it; a trusted-proxy list that trusts
// every client starts with a warning. Through `serve` as users run it, and the settings reader.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceSettings } from '../../runtime/server/service-settings.ts';
import { StartupError } from '../../runtime/server/startup-errors.ts';

const bin = resolve('bin/pipewright.mjs');
const children: ChildProcess[] = [];
afterAll(() => { for (const c of children) c.kill('SIGKILL'); });

/** The CLI to its exit: its code and stderr (not spawnSync, which would hold the tests beside it). */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += d; });
  return new Promise((done) => child.on('close', (status) => done({ status, stderr })));
}

// Each start compiles the config before it reads the settings: the starts run side by side.
describe.concurrent('serve refuses a bad setting with one line naming it', () => {
  it.each([
    ['SERVICE__TRUSTED_PROXIES', 'localhost', /^pipewright: SERVICE__TRUSTED_PROXIES: "localhost" is a host name, which never matches/],
    ['SERVICE__MAX_DELAY_SECS', '-1', /^pipewright: SERVICE__MAX_DELAY_SECS=-1 must be a number between 0 and/],
    ['SERVICE__MAX_DELAY_SECS', 'soon', /^pipewright: SERVICE__MAX_DELAY_SECS=soon must be a number/],
  ])('%s=%s', async (name, value, message) => {
    const r = await run(['serve', 'fixtures/quickstart.yaml', '--port', '0'], { ...process.env, [name]: value });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('SERVICE__TRUSTED_PROXIES=0.0.0.0/0,::/0 starts, with a warning that every client sets its own address', async () => {
    const child = spawn(process.execPath, [bin, 'serve', 'fixtures/quickstart.yaml', '--port', '0'], { env: { ...process.env, SERVICE__TRUSTED_PROXIES: '0.0.0.0/0,::/0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const out = await new Promise<string>((ok, fail) => {
      let text = '';
      // The started line (after the start-up warnings, on the same stdout) says it is up.
      child.stdout!.on('data', (d) => { text += d; if (/"msg":"started"/.test(text)) ok(text); });
      child.on('exit', (c) => fail(new Error(`exited ${c}`)));
    });
    child.kill('SIGTERM');
    expect(out).toMatch(/"level":40.*SERVICE__TRUSTED_PROXIES holds 0\.0\.0\.0\/0, ::\/0: every client is trusted as a proxy and sets its own address/);
  }, 60_000);
});

describe('the settings reader', () => {
  const refused: Array<[string, string]> = [
    ['SERVICE__TRUSTED_PROXIES', 'proxy.internal'], ['SERVICE__TRUSTED_PROXIES', '10.0.0.0/33'],
    ['SERVICE__MAX_DELAY_SECS', '-1'], ['SERVICE__MAX_DELAY_SECS', '1e9'], ['SERVICE__MAX_DELAY_SECS', 'x'],
    ['SERVICE__MANAGED_MODE', 'yes'], ['SERVICE__MANAGED_MODE', 'on'], ['SERVICE__DISABLE_FASTPATH', 'ture'], ['SERVICE__LOG_PRETTY', '2'], ['SERVICE__LOG_LEVEL_LABELS', 'words'], ['SERVICE__CRON_SECONDS', 'true'],
    ['SERVICE__METRICS_MAX_SERIES', '0'], ['SERVICE__METRICS_MAX_SERIES', 'many'],
    ['SERVICE__MQTT_PORT', '70000'], ['SERVICE__MQTT_PORT', '1883.5'], ['SERVICE__RESUME_POLL_MS', '0'], ['SERVICE__LEASE_SECS', '-3'],
    ['SERVICE__ORG', 'a/b'], ['SERVICE__ENVIRONMENT', '#'], ['SERVICE__DATABASE_SCHEMA', 'x"; drop'],
    ['SERVICE__MQTT_URL', 'localhost:1883'], ['SERVICE__SMTP_URL', 'http://mail'], ['SERVICE__KUBERNETES_API_URL', 'ftp://k'],
    ['SERVICE__DNS_SERVERS', 'dns.local'], ['SERVICE__DISCOVER_KUBERNETES_NAMESPACES', 'Bad_NS'],
  ];
  it.each(refused)('%s=%s is a StartupError naming the setting', (name, value) => {
    let err: unknown;
    try { serviceSettings({ [name]: value }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toContain(name);
  });

  it('good values are read, and defaults hold when unset', () => {
    expect(serviceSettings({})).toEqual({ maxDelaySecs: 300, mqttPort: 1883, resumePollMs: 250, warnings: [] });
    const s = serviceSettings({
      SERVICE__MAX_DELAY_SECS: '0.1', SERVICE__MQTT_PORT: '0', SERVICE__METRICS_MAX_SERIES: '50', SERVICE__ORG: 'acme', SERVICE__ENVIRONMENT: 'prod',
      SERVICE__TRUSTED_PROXIES: '10.0.0.0/8, ::1', SERVICE__MANAGED_MODE: 'TRUE', SERVICE__DNS_SERVERS: '1.1.1.1,[::1]:53,127.0.0.1:5353',
      SERVICE__MQTT_URL: 'mqtts://broker:8883', SERVICE__SMTP_URL: 'smtp://u:p@mail:587', SERVICE__DATABASE_SCHEMA: 'pw_1',
    });
    expect(s).toEqual({ maxDelaySecs: 0.1, mqttPort: 0, resumePollMs: 250, metricsMaxSeries: 50, org: 'acme', environment: 'prod', warnings: [] });
  });

  it('a URL setting\'s refusal does not repeat its value (it may hold a password)', () => {
    expect(() => serviceSettings({ SERVICE__SMTP_URL: 'http://user:hunter22@mail' })).toThrow(/^SERVICE__SMTP_URL must be a URL starting with smtp:\/\/, smtps:\/\/$/);
  });
});
