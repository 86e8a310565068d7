// Outbound facts: destinations (hosts, connection strings) that a request or an upstream's answer
// chooses, and the operator's secrets sent along to them. Every outbound kind names its destination
// fields here; a URL is request-chosen only where the config leaves its scheme, host or port open.
import { forEachAction, forEachString, interfaces, isObj, type Obj } from '../load/walk.ts';
import type { ConfigPath } from '../source/yaml.ts';
import { at, type AuditInput } from './context.ts';
import type { Finding } from './finding.ts';
import { hasSecretRef, hostChooser, untrustedRef, type Origin } from './markers.ts';
import type { AuditSettings } from './settings.ts';

interface Site {
  /** The outbound kind in words ("HTTP call", "SQL connection"). */
  what: string;
  path: ConfigPath;
  value: string;
  /** A URL (only its scheme/host/port matter) or a string any marker of which reshapes (conn strings, hosts). */
  url: boolean;
  /** Config values sent to that destination (where secrets are looked for), with their paths. */
  carries: Array<[ConfigPath, unknown]>;
}

export function outboundFindings(input: AuditInput, s: AuditSettings): Finding[] {
  const out: Finding[] = [];
  for (const iface of interfaces(input.config)) {
    const i = iface.iface;
    // The single-step shorthand on the interface is an action of its own.
    sitesOf(i, iface.path, true).forEach((site) => out.push(...judge(input, s, site, iface.name)));
    forEachAction(iface, (a) => sitesOf(a.action, a.path, false).forEach((site) => out.push(...judge(input, s, site, iface.name, a.name))));
  }
  const dbs = isObj(input.config) && isObj(input.config.databases) ? input.config.databases : {};
  for (const [name, db] of Object.entries(dbs)) {
    if (!isObj(db)) continue;
    const path = ['databases', name, 'url'];
    if (typeof db.url === 'string') out.push(...judge(input, s, { what: `SQL connection (database "${name}")`, path, value: db.url, url: false, carries: [[path, db.url]] }));
  }
  return out;
}

function sitesOf(a: Obj, p: ConfigPath, shorthand: boolean): Site[] {
  const sites: Site[] = [];
  const add = (what: string, path: ConfigPath, value: unknown, url: boolean, carries: Array<[ConfigPath, unknown]>) => {
    if (typeof value === 'string') sites.push({ what, path, value, url, carries });
  };
  const http = isObj(a.http) ? a.http : undefined;
  const httpCarries: Array<[ConfigPath, unknown]> = [[[...p, 'url'], a.url], [[...p, 'http'], http]];
  add('HTTP call', [...p, 'url'], a.url, true, httpCarries);
  if (shorthand) {
    add('SQL connection', [...p, 'conn_string'], a.conn_string, false, [[[...p, 'conn_string'], a.conn_string]]);
    return sites;
  }
  if (http) {
    add('HTTP call', [...p, 'http', 'url'], http.url, true, httpCarries);
    add('HTTP proxy', [...p, 'http', 'proxy'], http.proxy, true, httpCarries);
  }
  add('SQL connection', [...p, 'conn_string'], a.conn_string, false, [[[...p, 'conn_string'], a.conn_string]]);
  const agent = isObj(a.agent) ? a.agent : undefined;
  if (agent) {
    const { mcp, tool_headers: _toLocalTools, ...model } = agent;
    add('agent model call', [...p, 'agent', 'url'], agent.url, true, [[[...p, 'agent'], model]]);
    if (Array.isArray(mcp)) mcp.forEach((m, k) => { if (isObj(m)) add('agent MCP server', [...p, 'agent', 'mcp', k, 'url'], m.url, true, [[[...p, 'agent', 'mcp', k], m]]); });
  }
  const sftp = isObj(a.sftp) ? a.sftp : undefined;
  if (sftp) {
    add('SFTP connection', [...p, 'sftp', 'host'], sftp.host, false, [[[...p, 'sftp'], sftp]]);
    add('SFTP connection', [...p, 'sftp', 'port'], sftp.port, false, [[[...p, 'sftp'], sftp]]);
  }
  const email = isObj(a.email) ? a.email : undefined;
  if (email) add('SMTP server', [...p, 'email', 'smtp'], email.smtp, true, [[[...p, 'email', 'smtp'], email.smtp]]);
  const discover = isObj(a.discover) ? a.discover : undefined;
  if (discover && isObj(discover.dns)) add('DNS discovery', [...p, 'discover', 'dns', 'name'], discover.dns.name, false, []);
  return sites;
}

const whose = (o: Origin) => (o === 'request' ? 'the request' : "an earlier action's answer or stored state");

function judge(input: AuditInput, s: AuditSettings, site: Site, iface?: string, action?: string): Finding[] {
  const chooser = site.url ? hostChooser(site.value) : untrustedRef(site.value);
  if (!chooser) return [];
  const owner = { ...(iface ? { interface: iface } : {}), ...(action ? { action } : {}) };
  const allow = s.outboundAllow;
  const out: Finding[] = [at(input, site.path, {
    id: 'request-chosen-destination',
    severity: allow ? 'low' : chooser.origin === 'request' ? 'high' : 'medium',
    ...owner,
    message: `${site.what}: ${chooser.src} (from ${whose(chooser.origin)}) chooses ${site.url ? 'the scheme, host or port' : 'the destination (any marker in it can change host, port or options)'}; ${allow ? `bounded by SERVICE__OUTBOUND_ALLOW (${allow})` : 'no SERVICE__OUTBOUND_ALLOW is set, so it can reach any address the server can (internal services, cloud metadata)'}`,
    fix: allow
      ? 'keep SERVICE__OUTBOUND_ALLOW to the hosts this call needs'
      : `${site.url ? 'write the host in the config (a|var::API|/path/a|params::id|)' : 'write the destination in the config or take it from a|secret::…| / a|var::…|, never from a request value,'} or set SERVICE__OUTBOUND_ALLOW to the hosts this call may reach (and SERVICE__MANAGED_MODE=1 to deny private ranges)`,
  }, 'value')];
  const secret = firstSecret(site.carries);
  if (secret) {
    out.push(at(input, site.path, {
      id: 'secret-to-chosen-destination',
      severity: allow ? 'medium' : 'high',
      ...owner,
      message: `${site.what}: the secret in ${secret} is sent to a destination ${chooser.src} chooses${allow ? `, any host of SERVICE__OUTBOUND_ALLOW (${allow})` : ': a caller can have the operator\'s credential sent to a host it controls'}`,
      fix: 'pin the destination in the config (a literal host or a|var::…|) for calls that carry secrets, or move the secret to a call whose host is pinned',
    }, 'value'));
  }
  return out;
}

/** The dotted config path of the first string carrying a|secret::…| among `carries`. */
function firstSecret(carries: Array<[ConfigPath, unknown]>): string | undefined {
  let found: string | undefined;
  for (const [base, value] of carries) {
    forEachString(value, base, (str, path) => { if (!found && hasSecretRef(str)) found = path.slice(path.lastIndexOf('actions') >= 0 ? path.lastIndexOf('actions') + 2 : 2).join('.'); }, () => found !== undefined);
    if (found) return found;
  }
  return undefined;
}
