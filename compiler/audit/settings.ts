// The security-relevant settings of the environment `audit` runs in (process.env SERVICE__*), read
// as the server reads them at start. Values are never echoed: only names, counts and list entries of
// non-secret settings (allow lists, proxies) appear in findings.
import { ipList, type IpList } from '../../runtime/network/ip-list.ts';
import type { Finding } from './finding.ts';

export type Env = Record<string, string | undefined>;

export interface AuditSettings {
  apiKeys: number;
  jwt: boolean;
  jwks: boolean;
  /** Any inbound credential configured: interfaces then require one unless `public: true`. */
  credentials: boolean;
  adminToken: boolean;
  /** SERVICE__PUBLIC_METRICS=1, SERVICE__PUBLIC_OPENAPI=1: surfaces opened on purpose even with credentials configured. */
  metricsPublic: boolean;
  openapiPublic: boolean;
  /** SERVICE__JWT_REQUIRE_EXP=0: JWTs without `exp` accepted (they never expire). */
  jwtWithoutExp: boolean;
  outboundAllow?: string;
  outboundDeny?: string;
  managed: boolean;
  database: boolean;
  mqttUrl: boolean;
  mqttPort: string;
  org: string;
  environment: string;
  /** Findings about the settings themselves (refused values, proxies trusted for everything). */
  findings: Finding[];
}

const set = (env: Env, k: string): string | undefined => (env[k] === undefined || env[k] === '' ? undefined : env[k]);
const managedMode = (v: string | undefined) => /^(1|true)$/i.test(v ?? '');

export function readSettings(env: Env): AuditSettings {
  const findings: Finding[] = [];
  const refused = (setting: string, why: string) => findings.push({
    id: 'setting-refused', severity: 'high', message: `${setting}: ${why}; serve refuses to start with it`, fix: `correct ${setting}`,
  });
  const keyNames = (set(env, 'SERVICE__API_KEYS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of keyNames) {
    const key = set(env, `SERVICE__SECRET__${n}`);
    if (key === undefined) refused('SERVICE__API_KEYS', `names ${n}, but SERVICE__SECRET__${n} is not set`);
    else if (key.length < 16) refused(`SERVICE__SECRET__${n}`, `the API key is ${key.length} characters, at least 16 are required`);
  }
  const jwtSecret = set(env, 'SERVICE__JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) refused('SERVICE__JWT_SECRET', `${jwtSecret.length} characters, at least 32 are required`);
  const admin = set(env, 'SERVICE__ADMIN_TOKEN');
  if (admin !== undefined && admin.length < 16) refused('SERVICE__ADMIN_TOKEN', `${admin.length} characters, at least 16 are required`);
  for (const k of ['SERVICE__OUTBOUND_ALLOW', 'SERVICE__OUTBOUND_DENY']) {
    try { ipList(set(env, k), k); } catch (e) { refused(k, (e as Error).message.replace(`${k}: `, '')); }
  }
  for (const k of ['SERVICE__PUBLIC_METRICS', 'SERVICE__PUBLIC_OPENAPI']) {
    const v = set(env, k);
    if (v !== undefined && v !== '0' && v !== '1') refused(k, 'must be 1 (open) or 0 (gated)');
  }
  const managed = set(env, 'SERVICE__MANAGED_MODE');
  if (managed !== undefined && !/^(1|true|0|false)$/i.test(managed)) refused('SERVICE__MANAGED_MODE', 'must be 1 or true (on), 0 or false (off)');
  const exp = set(env, 'SERVICE__JWT_REQUIRE_EXP');
  if (exp !== undefined && !/^(1|true|0|false)$/i.test(exp)) refused('SERVICE__JWT_REQUIRE_EXP', 'must be 1 (exp required) or 0');
  findings.push(...trustedProxies(set(env, 'SERVICE__TRUSTED_PROXIES')));
  const s: AuditSettings = {
    apiKeys: keyNames.length,
    jwt: jwtSecret !== undefined,
    jwks: set(env, 'SERVICE__JWKS_URL') !== undefined,
    credentials: false,
    adminToken: admin !== undefined,
    metricsPublic: set(env, 'SERVICE__PUBLIC_METRICS') === '1',
    openapiPublic: set(env, 'SERVICE__PUBLIC_OPENAPI') === '1',
    jwtWithoutExp: /^(0|false)$/i.test(set(env, 'SERVICE__JWT_REQUIRE_EXP') ?? ''),
    managed: managedMode(env.SERVICE__MANAGED_MODE),
    database: set(env, 'SERVICE__DATABASE_URL') !== undefined,
    mqttUrl: set(env, 'SERVICE__MQTT_URL') !== undefined,
    mqttPort: set(env, 'SERVICE__MQTT_PORT') ?? '1883',
    org: set(env, 'SERVICE__ORG') ?? 'local',
    environment: set(env, 'SERVICE__ENVIRONMENT') ?? 'dev',
    findings,
  };
  s.credentials = s.apiKeys > 0 || s.jwt || s.jwks;
  const allow = set(env, 'SERVICE__OUTBOUND_ALLOW');
  const deny = set(env, 'SERVICE__OUTBOUND_DENY');
  if (allow !== undefined) s.outboundAllow = allow;
  if (deny !== undefined) s.outboundDeny = deny;
  return s;
}

/** The credentials configured, in words: "2 API keys and a JWT secret". */
export function credentialWords(s: AuditSettings): string {
  const parts = [s.apiKeys ? `${s.apiKeys} API key${s.apiKeys === 1 ? '' : 's'}` : '', s.jwt ? 'a JWT secret' : '', s.jwks ? 'a JWKS URL' : ''].filter(Boolean);
  return parts.join(' and ');
}

/** Proxies trusted for every address let any client write its own X-Forwarded-For: every `network:`
 *  rule and rate limit then reads an address the client chose. A host name never matches a peer. */
function trustedProxies(text: string | undefined): Finding[] {
  if (text === undefined) return [];
  let list: IpList;
  try { list = ipList(text, 'SERVICE__TRUSTED_PROXIES'); } catch (e) {
    return [{ id: 'setting-refused', severity: 'high', message: `${(e as Error).message}; serve refuses to start with it`, fix: 'list the IPs or CIDRs of your reverse proxies' }];
  }
  const out: Finding[] = [];
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const wide = entries.filter((e) => /\/0+$/.test(e));
  if (wide.length) {
    out.push({
      id: 'trusted-proxies-everything', severity: 'high',
      message: `SERVICE__TRUSTED_PROXIES trusts every address (${wide.join(', ')}): any client sets its own address with X-Forwarded-For, so network: IP, country and ASN rules and per-address rate limits can be bypassed`,
      fix: 'list only the addresses or CIDRs of your reverse proxies (for example 10.0.0.5 or 10.0.0.0/24)',
    });
  }
  if (list.hosts.length) {
    out.push({
      id: 'setting-refused', severity: 'high',
      message: `SERVICE__TRUSTED_PROXIES: host names (${list.hosts.join(', ')}) never match a peer address; serve refuses to start with it`,
      fix: 'write the proxies as IP addresses or CIDRs (127.0.0.1,::1 for a proxy on this machine)',
    });
  }
  return out;
}
