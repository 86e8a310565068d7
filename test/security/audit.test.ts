// `pipewright audit` (compiler/audit, cli/audit.ts): the security facts of real configs and of an
// environment map, each with its id, severity and position; and the command as CI runs it, with
// real SERVICE__* settings in the child's environment, its JSON and text output and exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { auditConfigs, loadAndCompile, type AuditInput, type Finding } from '../../compiler/index.ts';
import { lowerConfig } from '../../compiler/lower/config.ts';
import type { Config } from '../../compiler/schema/config-types.ts';
import { parseYamlWithPositions } from '../../compiler/source/yaml.ts';

// The CLI tests start the command through tsx: a limit for a shared machine, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), 'pw-audit-'));
let n = 0;
function file(yaml: string, name = `c${++n}.yaml`): string {
  const f = join(dir, name);
  writeFileSync(f, yaml);
  return f;
}

/** A config loaded exactly as `check` and `audit` load it (it must pass check). */
function loaded(yaml: string): AuditInput {
  const { loaded: l, compiled } = loadAndCompile(file(yaml));
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { file: compiled.file, config: l.config, locate: l.locate, ir: compiled.ir! };
}

/** Parsed and lowered without check's lints: for placements a `check` rule may refuse (issue 29
 *  §3 refuses secrets sent to request-chosen hosts); audit's own rule must hold on its own. */
function parsed(yaml: string): AuditInput {
  const f = file(yaml);
  const { value, locate } = parseYamlWithPositions(f, yaml);
  return { file: f, config: value, locate, ir: lowerConfig('c', f, value as Config, (p) => locate(p).line) };
}

const KEYS = { SERVICE__API_KEYS: 'K1', SERVICE__SECRET__K1: 'k'.repeat(24) };
const brief = (fs: Finding[]) => fs.map((f) => [f.id, f.severity, f.line ?? null, f.col ?? null]);
const only = (fs: Finding[], id: string) => fs.filter((f) => f.id === id);

describe('audit: inbound', () => {
  const yaml = `interfaces:
  status:
    public: true
    method: GET
    actions:
      - name: Ok
        input: { ok: true }
        output: http
  orders:
    method: POST
    actions:
      - name: Echo
        input: a|body|
        output: http
  nightly:
    schedule: { cron: "0 3 * * *", enabled: true }
    actions:
      - name: Tick
        input: { at: now }
`;

  it('lists every reachable non-public interface as open (high) when no credential is configured, not scheduled ones', () => {
    const fs = auditConfigs([loaded(yaml)], {});
    expect(brief(only(fs, 'open-interface'))).toEqual([['open-interface', 'high', 9, 3]]);
    expect(only(fs, 'open-interface')[0]!.message).toContain('interface "orders" (POST /orders) answers anyone');
    expect(brief(only(fs, 'public-interface'))).toEqual([['public-interface', 'low', 2, 3]]);
    expect(brief(only(fs, 'public-without-network-policy'))).toEqual([['public-without-network-policy', 'low', 2, 3]]);
    expect(only(fs, 'credentials')).toEqual([]);
  });

  it('with API keys configured: no open interface, the public one still listed, the credentials stated', () => {
    const fs = auditConfigs([loaded(yaml)], KEYS);
    expect(only(fs, 'open-interface')).toEqual([]);
    expect(only(fs, 'public-interface')[0]!.message).toContain('although credentials are configured (1 API key)');
    expect(brief(only(fs, 'credentials'))).toEqual([['credentials', 'info', null, null]]);
    expect(fs.some((f) => f.severity === 'high')).toBe(false);
  });

  it('a config-wide network policy covers a public interface unless it sets inherit: false', () => {
    const covered = auditConfigs([loaded(`network: { rate_limit: { requests: 10, per: 1m } }\n${yaml}`)], KEYS);
    expect(only(covered, 'public-without-network-policy')).toEqual([]);
    const dropped = yaml.replace('    public: true\n', '    public: true\n    network: { inherit: false }\n');
    const fs = auditConfigs([loaded(`network: { rate_limit: { requests: 10, per: 1m } }\n${dropped}`)], KEYS);
    expect(brief(only(fs, 'public-without-network-policy'))).toEqual([['public-without-network-policy', 'low', 3, 3]]);
  });

  it('a JWT secret or a JWKS URL counts as a credential; a dangling or short API key is a refused setting', () => {
    expect(only(auditConfigs([loaded(yaml)], { SERVICE__JWT_SECRET: 's'.repeat(32) }), 'open-interface')).toEqual([]);
    expect(only(auditConfigs([loaded(yaml)], { SERVICE__JWKS_URL: 'https://idp.example.com/jwks' }), 'open-interface')).toEqual([]);
    const fs = auditConfigs([loaded(yaml)], { SERVICE__API_KEYS: 'K1,K2', SERVICE__SECRET__K1: 'short' });
    expect(only(fs, 'setting-refused').map((f) => [f.severity, f.message])).toEqual([
      ['high', 'SERVICE__SECRET__K1: the API key is 5 characters, at least 16 are required; serve refuses to start with it'],
      ['high', 'SERVICE__API_KEYS: names K2, but SERVICE__SECRET__K2 is not set; serve refuses to start with it'],
    ]);
    expect(JSON.stringify(fs)).not.toContain('short');
  });

  it('WebSocket, MCP and MQTT surfaces: medium without credentials, info with, the broker named', () => {
    const y = `interfaces:
  feed:
    ws: true
    actions:
      - name: P
        ws_publish: { channels: news }
  price:
    method: POST
    mcp: { enabled: true }
    actions:
      - name: P
        input: a|body|
        output: http
  lamp:
    mqtt: lamp
    actions:
      - name: N
        mqtt_publish: { topics: lamps/state, data: on }
`;
    const open = auditConfigs([loaded(y)], {});
    expect(brief(open.filter((f) => f.id.endsWith('-surface')))).toEqual([
      ['mqtt-surface', 'medium', 15, 5], ['mcp-surface', 'info', 9, 5], ['websocket-surface', 'info', 3, 5],
    ]);
    expect(only(open, 'mqtt-surface')[0]!.message).toContain('embedded broker on TCP port 1883 and at /mqtt');
    // A non-public WebSocket interface takes no socket while no credential is configured: not open, unreachable.
    expect(brief(only(open, 'open-interface')).map((b) => b[2])).toEqual([7, 14]);
    expect(brief(only(open, 'websocket-unreachable'))).toEqual([['websocket-unreachable', 'info', 3, 5]]);
    const gated = auditConfigs([loaded(y)], { ...KEYS, SERVICE__MQTT_URL: 'mqtt://broker.internal:1883', SERVICE__ORG: 'acme', SERVICE__ENVIRONMENT: 'prod' });
    expect(gated.filter((f) => f.id.endsWith('-surface')).map((f) => f.severity)).toEqual(['info', 'info', 'info']);
    expect(only(gated, 'websocket-surface')[0]!.message).toContain('/ws/acme/prod/<interface>: the upgrade requires a credential (1 API key)');
    expect(only(gated, 'mqtt-surface')[0]!.message).toContain('SERVICE__MQTT_URL');
    expect(only(gated, 'websocket-unreachable')).toEqual([]);
  });

  // One config with both is refused by check (compiler/load/lint-refs.ts); configs served together
  // share the channels too (refused at start), which audit reports before a deployment.
  it('a channel guarded in one config is subscribable through another config\'s WebSocket interface without an authorizer (high)', () => {
    const guarded = `interfaces:
  private_feed:
    ws: true
    subscribe_authorizer: may_subscribe
    actions:
      - name: P
        ws_publish: { channels: secrets }
  may_subscribe:
    actions:
      - name: Check
        input: a|body|
`;
    const open = (second: string) => `interfaces:
  public_feed:
    ws: true
    public: true
${second}    actions:
      - name: P
        ws_publish: { channels: news }
  may_subscribe:
    actions:
      - name: Check
        input: a|body|
`;
    const fs = auditConfigs([loaded(guarded), loaded(open(''))], KEYS);
    expect(brief(only(fs, 'unguarded-subscriptions'))).toEqual([['unguarded-subscriptions', 'high', 3, 5]]);
    expect(only(fs, 'unguarded-subscriptions')[0]!.message).toContain('including those "private_feed" (may_subscribe) guards (and it is public)');
    expect(only(auditConfigs([loaded(guarded), loaded(open('    subscribe_authorizer: may_subscribe\n'))], KEYS), 'unguarded-subscriptions')).toEqual([]);
  });

  it('metrics: open and high when labels carry request values, gated with credentials, open again when made public', () => {
    const y = `expose_metrics: true
interfaces:
  signup:
    method: POST
    actions:
      - name: Count
        emit_metric: { name: signups, type: counter, labels: { email: a|body::email| } }
`;
    expect(brief(only(auditConfigs([loaded(y)], {}), 'metrics-open'))).toEqual([['metrics-open', 'high', 1, 1]]);
    expect(only(auditConfigs([loaded(y)], {}), 'metrics-open')[0]!.message).toContain('signups{email} = a|body::email|');
    expect(brief(only(auditConfigs([loaded(y)], KEYS), 'metrics-gated'))).toEqual([['metrics-gated', 'info', 1, 1]]);
    expect(brief(only(auditConfigs([loaded(y)], { ...KEYS, SERVICE__PUBLIC_METRICS: '1' }), 'metrics-open'))).toEqual([['metrics-open', 'high', 1, 1]]);
    const plain = y.replace('labels: { email: a|body::email| }', 'labels: { plan: basic }');
    expect(brief(only(auditConfigs([loaded(plain)], {}), 'metrics-open'))).toEqual([['metrics-open', 'medium', 1, 1]]);
  });

  it('captures: each capturing interface (low), the admin token (info)', () => {
    const y = `interfaces:
  pay:
    method: POST
    capture: { mode: all, for_minutes: 30 }
    actions:
      - name: A
        input: a|body|
        output: http
  quiet:
    method: GET
    capture: "off"
    actions:
      - name: A
        input: {}
`;
    const fs = auditConfigs([loaded(y)], { SERVICE__ADMIN_TOKEN: 'a'.repeat(20) });
    expect(brief(only(fs, 'capture-on'))).toEqual([['capture-on', 'low', 4, 5]]);
    expect(only(fs, 'capture-on')[0]!.message).toContain('captures every run');
    expect(brief(only(fs, 'admin-token'))).toEqual([['admin-token', 'info', null, null]]);
    expect(only(auditConfigs([loaded(y)], { SERVICE__ADMIN_TOKEN: 'short' }), 'setting-refused')[0]!.severity).toBe('high');
  });
});

describe('audit: outbound', () => {
  const http = (url: string, extra = '') => `interfaces:
  call:
    method: POST
    actions:
      - name: Fetch
        http:
          url: ${url}${extra}
`;

  it.each([
    ['a|body::callback|', 'high'],
    ['a|body::base|/items/a|params::id|', 'high'],
    ['a|header::X-Target|', 'high'],
    ['"https://api.example.com/items/a|body::id|?q=a|params::q|"', null],
    ['a|var::API|/items/a|body::id|', null],
    ['a|secret::BASE|/items/a|body::id|', null],
  ])('http url %s: request-chosen destination %s', (url, severity) => {
    const fs = only(auditConfigs([loaded(http(url))], {}), 'request-chosen-destination');
    expect(fs.map((f) => [f.severity, f.line, f.col])).toEqual(severity ? [[severity, 7, 16]] : []);
  });

  it('an upstream\'s answer choosing the host is medium; SERVICE__OUTBOUND_ALLOW bounds both to low', () => {
    const y = `interfaces:
  follow:
    method: GET
    actions:
      - name: First
        url: https://api.example.com/start
      - name: Next
        url: a|First::body.next|
`;
    expect(brief(only(auditConfigs([loaded(y)], {}), 'request-chosen-destination'))).toEqual([['request-chosen-destination', 'medium', 8, 14]]);
    const bounded = only(auditConfigs([loaded(y)], { SERVICE__OUTBOUND_ALLOW: 'api.example.com' }), 'request-chosen-destination');
    expect(bounded.map((f) => f.severity)).toEqual(['low']);
    expect(bounded[0]!.message).toContain('bounded by SERVICE__OUTBOUND_ALLOW (api.example.com)');
  });

  it('a secret sent to a request-chosen host: high, medium under an allow list, with where the secret is', () => {
    const y = http('a|body::cb|', '\n          bearer_auth: a|secret::TOKEN|');
    const fs = auditConfigs([parsed(y)], {});
    expect(brief(only(fs, 'secret-to-chosen-destination'))).toEqual([['secret-to-chosen-destination', 'high', 7, 16]]);
    expect(only(fs, 'secret-to-chosen-destination')[0]!.message).toContain('the secret in http.bearer_auth is sent to a destination a|body::cb| chooses');
    expect(only(auditConfigs([parsed(y)], { SERVICE__OUTBOUND_ALLOW: 'hooks.example.com' }), 'secret-to-chosen-destination').map((f) => f.severity)).toEqual(['medium']);
    // Pinned host: the same secret is no finding.
    expect(only(auditConfigs([parsed(http('a|var::API|/x/a|body::id|', '\n          bearer_auth: a|secret::TOKEN|'))], {}), 'secret-to-chosen-destination')).toEqual([]);
  });

  it('agent model and MCP URLs, SFTP hosts, SMTP URLs, connection strings and DNS names are destinations too', () => {
    const y = `interfaces:
  all:
    method: POST
    actions:
      - name: Agent
        agent:
          url: a|body::model_url|
          model: m
          headers: { Authorization: "Bearer a|secret::MODEL_KEY|" }
          input: hi
          mcp:
            - url: a|var::MCP|/rpc
              headers: { Authorization: "Bearer a|secret::MCP_KEY|" }
            - url: a|body::tools|
      - name: Files
        sftp: { host: a|body::host|, user: u, password: a|secret::SFTP_PW|, host_key: "SHA256:abc", operation: list, path: /in }
      - name: Mail
        email: { smtp: "smtp://u:a|secret::SMTP_PW|@a|body::relay|:587", from: a@example.com, to: b@example.com, subject: s, text: t }
      - name: Rows
        query: select 1
        conn_string: "postgres://u:p@db.internal/app?a|params::opts|"
      - name: Peers
        discover: { dns: { name: a|body::service| }, port: 80 }
`;
    const fs = auditConfigs([parsed(y)], {});
    expect(only(fs, 'request-chosen-destination').map((f) => [f.action, f.line, f.message.split(':')[0]])).toEqual([
      ['Agent', 7, 'agent model call'], ['Agent', 14, 'agent MCP server'], ['Files', 16, 'SFTP connection'],
      ['Mail', 18, 'SMTP server'], ['Rows', 21, 'SQL connection'], ['Peers', 23, 'DNS discovery'],
    ]);
    expect(only(fs, 'secret-to-chosen-destination').map((f) => [f.action, f.line])).toEqual([['Agent', 7], ['Files', 16], ['Mail', 18]]);
  });

  it('a database declared with a request marker in its URL is a request-chosen SQL destination', () => {
    const y = `databases:
  main: { url: "postgres://u@db.internal/app?a|header::X-Opts|" }
interfaces:
  rows:
    method: GET
    actions:
      - name: Rows
        query: select 1
`;
    const fs = only(auditConfigs([parsed(y)], {}), 'request-chosen-destination');
    expect(fs.map((f) => [f.severity, f.line, f.col, f.message.split(':')[0]])).toEqual([['high', 2, 16, 'SQL connection (database "main")']]);
  });

  it('markers are read with the compiler\'s grammar: text that is not a marker is not a finding', () => {
    const y = http('"https://api.example.com/a|not a marker"', '');
    expect(only(auditConfigs([loaded(y)], {}), 'request-chosen-destination')).toEqual([]);
  });
});

describe('audit: host and environment', () => {
  const y = `interfaces:
  echo:
    method: POST
    actions:
      - name: Echo
        command: { run: '/bin/echo -- a|body::text|' }
        output: http
  count:
    method: POST
    actions:
      - name: Count
        command: { shell: true, run: "printf '%s' a|body::text| | wc -w" }
  date:
    method: GET
    actions:
      - name: Date
        command: { run: /bin/date }
  upload:
    method: POST
    actions:
      - name: Up
        http:
          url: https://files.example.com/up
          method: POST
          multipart: [{ name: f, file_path: /tmp/report.csv }]
`;

  it('commands (request values in arguments: medium; none: low), shell scripts, file_path parts, managed mode off', () => {
    const fs = auditConfigs([loaded(y)], {});
    expect(brief(fs.filter((f) => f.id.startsWith('command') || f.id === 'file-path-part'))).toEqual([
      ['command-action', 'medium', 6, 9], ['command-shell', 'medium', 12, 9], ['command-action', 'low', 17, 9], ['file-path-part', 'low', 25, 45],
    ]);
    expect(only(fs, 'managed-mode-off').map((f) => [f.severity, f.message.includes('(4 places)')])).toEqual([['info', true]]);
    const managed = auditConfigs([loaded(y)], { SERVICE__MANAGED_MODE: '1' });
    expect(only(managed, 'managed-mode-off')).toEqual([]);
    expect(only(managed, 'command-action')[0]!.message).toContain('managed mode is on: serve refuses this config');
  });

  it('trusted proxies: everything is high, host names never match (medium), garbage stops the start', () => {
    const ok = loaded(y);
    expect(brief(only(auditConfigs([ok], { SERVICE__TRUSTED_PROXIES: '10.0.0.5, 0.0.0.0/0' }), 'trusted-proxies-everything'))).toEqual([['trusted-proxies-everything', 'high', null, null]]);
    expect(only(auditConfigs([ok], { SERVICE__TRUSTED_PROXIES: '::/0' }), 'trusted-proxies-everything')).toHaveLength(1);
    expect(only(auditConfigs([ok], { SERVICE__TRUSTED_PROXIES: '10.0.0.0/8' }), 'trusted-proxies-everything')).toEqual([]);
    expect(only(auditConfigs([ok], { SERVICE__TRUSTED_PROXIES: 'localhost' }), 'setting-refused').map((f) => [f.severity, f.message])).toEqual([
      ['high', 'SERVICE__TRUSTED_PROXIES: host names (localhost) never match a peer address; serve refuses to start with it'],
    ]);
    expect(only(auditConfigs([ok], { SERVICE__TRUSTED_PROXIES: '10.0.0.0/99' }), 'setting-refused').map((f) => f.severity)).toEqual(['high']);
  });

  it('JWTs without exp accepted (medium), the OpenAPI document opened (low), misspelt flags refused (high)', () => {
    const ok = loaded(y);
    const jwt = { SERVICE__JWT_SECRET: 's'.repeat(32) };
    expect(brief(only(auditConfigs([ok], { ...jwt, SERVICE__JWT_REQUIRE_EXP: '0' }), 'jwt-without-exp'))).toEqual([['jwt-without-exp', 'medium', null, null]]);
    expect(only(auditConfigs([ok], jwt), 'jwt-without-exp')).toEqual([]);
    expect(brief(only(auditConfigs([ok], { ...KEYS, SERVICE__PUBLIC_OPENAPI: '1' }), 'openapi-public'))).toEqual([['openapi-public', 'low', null, null]]);
    const refused = only(auditConfigs([ok], { SERVICE__MANAGED_MODE: 'yes', SERVICE__PUBLIC_METRICS: 'true' }), 'setting-refused').map((f) => f.message.split(':')[0]);
    expect(refused).toEqual(['SERVICE__PUBLIC_METRICS', 'SERVICE__MANAGED_MODE']);
  });

  it('in-memory state is info without SERVICE__DATABASE_URL, absent with it', () => {
    expect(brief(only(auditConfigs([loaded(y)], {}), 'in-memory-state'))).toEqual([['in-memory-state', 'info', null, null]]);
    expect(only(auditConfigs([loaded(y)], { SERVICE__DATABASE_URL: 'postgres://127.0.0.1/test' }), 'in-memory-state')).toEqual([]);
  });
});

describe('pipewright audit (the command)', () => {
  const bin = resolve('bin/pipewright.mjs');
  // The child's environment is exactly what the test gives it: no SERVICE__* of the machine running it.
  function cli(args: string[], env: Record<string, string> = {}) {
    const r = spawnSync(process.execPath, [bin, 'audit', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  }
  const shop = file(`expose_metrics: true
interfaces:
  status:
    public: true
    method: GET
    actions:
      - name: Ok
        input: { ok: true }
        output: http
  orders:
    method: POST
    capture: errors
    actions:
      - name: Callback
        http:
          url: a|body::callback|
          method: POST
          body: { id: a|body::id| }
      - name: Count
        emit_metric: { name: orders_total, type: counter, labels: { customer: a|body::email| } }
      - name: Echo
        command: { run: '/bin/echo -- a|body::id|' }
        output: http
`, 'shop.yaml');

  it('JSON for CI: every finding with id, severity and position; exit 1 on a high finding', () => {
    const r = cli([shop, '--format', 'json']);
    expect(r.code).toBe(1);
    const fs = JSON.parse(r.out) as Finding[];
    expect(fs.map((f) => [f.id, f.severity, f.line ? `${f.line}:${f.col}` : null])).toEqual([
      ['metrics-open', 'high', '1:1'],
      ['open-interface', 'high', '10:3'],
      ['request-chosen-destination', 'high', '16:16'],
      ['command-action', 'medium', '22:9'],
      ['capture-on', 'low', '12:5'],
      ['public-interface', 'low', '3:3'],
      ['public-without-network-policy', 'low', '3:3'],
      ['in-memory-state', 'info', null],
      ['managed-mode-off', 'info', null],
    ]);
    expect(fs[0]!.file).toBe(shop);
    expect(r.err).toBe('audit: 3 high, 1 medium, 3 low, 2 info; 3 at or above high (exit 1)\n');
  });

  it('with production settings: exit 0 at the default --fail-on high, 1 at medium; no secret value printed', () => {
    const env = { ...KEYS, SERVICE__OUTBOUND_ALLOW: 'hooks.example.com', SERVICE__DATABASE_URL: 'postgres://127.0.0.1:5432/test', SERVICE__MANAGED_MODE: '1' };
    const high = cli([shop], env);
    expect(high.code).toBe(0);
    expect(high.err).toBe('audit: 0 high, 1 medium, 4 low, 2 info; 0 at or above high\n');
    expect(high.out).toContain(`MEDIUM command-action (1)`);
    expect(high.out).toContain(`  ${shop}:22:9: action "Echo" runs a program on the server`);
    expect(high.out).toContain('bounded by SERVICE__OUTBOUND_ALLOW (hooks.example.com)');
    expect(high.out).not.toContain(KEYS.SERVICE__SECRET__K1);
    expect(high.out.split('\n').filter((l) => l.startsWith('  ')).length).toBe(7);
    const medium = cli([shop, '--fail-on', 'medium'], env);
    expect(medium.code).toBe(1);
    expect(medium.err).toContain('1 at or above medium (exit 1)');
    expect(cli([shop, '--fail-on', 'low'], env).err).toContain('5 at or above low (exit 1)');
  });

  it('a config that does not load: check\'s diagnostics, no findings, exit 2', () => {
    const bad = file('interfaces:\n  x:\n    method: GETT\n    actions:\n      - name: A\n        output: http\n');
    const r = cli([shop, bad, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(`${bad}:3:13: error: method "GETT" of interface "x" is not an HTTP method`);
    expect(r.err).toContain('nothing audited');
  });

  it('refuses an unknown --fail-on or --format (exit 2)', () => {
    expect(cli([shop, '--fail-on', 'info']).code).toBe(2);
    expect(cli([shop, '--format', 'yaml']).code).toBe(2);
  });
});
