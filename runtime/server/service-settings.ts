// The SERVICE__* settings that main.ts and its helpers read without a module of their own, validated
// at start like the others (ops-settings.ts, auth/settings.ts, log-settings.ts): a value that would
// be read as something else (a host name where an address is matched, a negative delay, "yes" for a
// flag read as 1/true) stops the start with one line naming the setting. Settings whose danger is a
// choice, not a mistake, start with a warning.
import { isIP } from 'node:net';
import { StartupError } from './startup-errors.ts';
import { numberSetting } from '../values/number-setting.ts';
import { ipList } from '../network/ip-list.ts';
import { isPlainPgName } from '../store/pg-schema.ts';
import { DEFAULT_MAX_DELAY_MS } from '../services.ts';

export interface ServiceSettings {
  /** SERVICE__MAX_DELAY_SECS (300): longer waits suspend into the durable store. */
  maxDelaySecs: number;
  /** SERVICE__METRICS_MAX_SERIES: series kept per emit_metric metric. */
  metricsMaxSeries?: number;
  /** SERVICE__MQTT_PORT (1883): the embedded broker's TCP port (0: a free one). */
  mqttPort: number;
  /** SERVICE__RESUME_POLL_MS (250): how often the resumer looks for due runs. */
  resumePollMs: number;
  org?: string;
  environment?: string;
  /** Warnings to log once the logger is up. */
  warnings: string[];
}

const number = (env: Env, name: string, dflt: number, o: Parameters<typeof numberSetting>[3]) => {
  try { return numberSetting(env, name, dflt, o); } catch (e) { throw new StartupError((e as Error).message); }
};
type Env = Record<string, string | undefined>;
const set = (env: Env, name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

/** Flags: the spellings each is read with, and their "off" spellings; anything else is a mistake. */
const FLAGS: Record<string, { on: string[]; off: string[] }> = {
  SERVICE__MANAGED_MODE: { on: ['1', 'true'], off: ['0', 'false'] },
  SERVICE__DISABLE_FASTPATH: { on: ['1', 'true', 'yes'], off: ['0', 'false', 'no'] },
  SERVICE__LOG_PRETTY: { on: ['1', 'true'], off: ['0', 'false'] },
  SERVICE__LOG_LEVEL_LABELS: { on: ['1', 'true'], off: ['0', 'false'] },
  SERVICE__CRON_SECONDS: { on: ['1'], off: ['0'] },
};

// A path segment and an MQTT topic level (`/ws/<org>/<env>/…`, `/<org>/<env>/mcp`, `<env>/…` topics).
const NAME = /^[A-Za-z0-9._~-]{1,64}$/;
const K8S_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function serviceSettings(env: Env = process.env): ServiceSettings {
  const warnings: string[] = [];
  for (const [name, f] of Object.entries(FLAGS)) {
    const v = set(env, name);
    if (v !== undefined && ![...f.on, ...f.off].includes(v.toLowerCase())) throw new StartupError(`${name}=${v} must be ${f.on.join(', ')} (on) or ${f.off.join(', ')} (off)`);
  }
  trustedProxies(set(env, 'SERVICE__TRUSTED_PROXIES'), warnings);
  for (const name of ['SERVICE__ORG', 'SERVICE__ENVIRONMENT']) {
    const v = set(env, name);
    if (v !== undefined && !NAME.test(v)) throw new StartupError(`${name}=${JSON.stringify(v)} must be 1 to 64 letters, digits, ".", "_", "~" or "-" (it is a URL path segment and an MQTT topic level)`);
  }
  const schema = set(env, 'SERVICE__DATABASE_SCHEMA');
  if (schema !== undefined && !isPlainPgName(schema)) throw new StartupError(`SERVICE__DATABASE_SCHEMA=${JSON.stringify(schema)} must be a plain Postgres name (letters, digits and _, not starting with a digit)`);
  number(env, 'SERVICE__LEASE_SECS', 30, { min: 1, max: 3600 });
  url(env, 'SERVICE__MQTT_URL', ['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:', 'ssl:', 'tls:']);
  url(env, 'SERVICE__SMTP_URL', ['smtp:', 'smtps:']);
  url(env, 'SERVICE__KUBERNETES_API_URL', ['http:', 'https:']);
  for (const s of (set(env, 'SERVICE__DNS_SERVERS') ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!dnsServer(s)) throw new StartupError(`SERVICE__DNS_SERVERS: ${JSON.stringify(s)} is not a resolver address (ip, ip:port or [ipv6]:port)`);
  }
  for (const ns of (set(env, 'SERVICE__DISCOVER_KUBERNETES_NAMESPACES') ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!K8S_NAME.test(ns)) throw new StartupError(`SERVICE__DISCOVER_KUBERNETES_NAMESPACES: ${JSON.stringify(ns)} is not a Kubernetes namespace name`);
  }
  const out: ServiceSettings = {
    maxDelaySecs: number(env, 'SERVICE__MAX_DELAY_SECS', DEFAULT_MAX_DELAY_MS / 1000, { min: 0, max: 30 * 86_400 }),
    mqttPort: number(env, 'SERVICE__MQTT_PORT', 1883, { min: 0, max: 65_535, whole: true }),
    resumePollMs: number(env, 'SERVICE__RESUME_POLL_MS', 250, { min: 10, max: 60_000, whole: true }),
    warnings,
  };
  if (set(env, 'SERVICE__METRICS_MAX_SERIES') !== undefined) out.metricsMaxSeries = number(env, 'SERVICE__METRICS_MAX_SERIES', 1000, { min: 1, max: 1_000_000, whole: true });
  if (set(env, 'SERVICE__ORG')) out.org = env.SERVICE__ORG!;
  if (set(env, 'SERVICE__ENVIRONMENT')) out.environment = env.SERVICE__ENVIRONMENT!;
  return out;
}

/** Proxies are matched by the address a connection comes from: only IPs and CIDRs can match. */
function trustedProxies(raw: string | undefined, warnings: string[]): void {
  if (raw === undefined) return;
  let list;
  try { list = ipList(raw, 'SERVICE__TRUSTED_PROXIES'); } catch (e) { throw new StartupError((e as Error).message); }
  if (list.hosts.length) {
    throw new StartupError(`SERVICE__TRUSTED_PROXIES: ${JSON.stringify(list.hosts[0])} is a host name, which never matches (a proxy is recognised by its IP address): list IP addresses or CIDRs, e.g. 127.0.0.1,::1 for a proxy on this machine`);
  }
  const everyone = raw.split(/[\s,]+/).filter((e) => /\/0+$/.test(e.trim()));
  if (everyone.length) warnings.push(`SERVICE__TRUSTED_PROXIES holds ${everyone.join(', ')}: every client is trusted as a proxy and sets its own address with X-Forwarded-For (network: rules and rate limits see what it writes)`);
}

function url(env: Env, name: string, protocols: string[]): void {
  const v = set(env, name);
  if (v === undefined) return;
  let u: URL | undefined;
  try { u = new URL(v); } catch { /* below */ }
  // The value is not repeated: it may hold a password.
  if (!u || !protocols.includes(u.protocol)) throw new StartupError(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(', ')}`);
}

function dnsServer(s: string): boolean {
  if (isIP(s)) return true;
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(s) ?? /^([^:]+):(\d{1,5})$/.exec(s);
  return !!m && isIP(m[1]!) !== 0 && Number(m[2]) >= 1 && Number(m[2]) <= 65_535;
}
