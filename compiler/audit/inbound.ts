// Inbound facts: which interfaces and surfaces (HTTP, WebSocket, MCP, MQTT, /metrics) answer whom,
// with the credentials and network policy the configs and the environment give them.
import type { InterfaceIR, NetworkIR } from '../../runtime/config-ir.ts';
import { forEachAction, interfaces, isObj } from '../load/walk.ts';
import { at, type AuditInput } from './context.ts';
import type { Finding } from './finding.ts';
import { untrustedRef } from './markers.ts';
import { credentialWords, type AuditSettings } from './settings.ts';

const NO_CREDENTIALS = 'no SERVICE__API_KEYS, SERVICE__JWT_SECRET or SERVICE__JWKS_URL is set';
const SET_CREDENTIALS = 'set SERVICE__API_KEYS (names of SERVICE__SECRET__<NAME> values of 16+ characters) or SERVICE__JWT_SECRET / SERVICE__JWKS_URL';

/** How an interface is reached from outside: its HTTP route, WebSocket path, MCP tool, MQTT topic.
 *  A non-public WebSocket interface takes no socket while no credential is configured. */
export function surfacesOf(i: InterfaceIR, s: AuditSettings): string[] {
  const out: string[] = [];
  if (i.routed) out.push(`${i.method} ${i.route}`);
  if (i.ws !== undefined && (i.public || s.credentials)) out.push(`WebSocket /ws/${s.org}/${s.environment}/${i.name}`);
  if (i.mcp) out.push(`MCP tool "${i.mcp.toolName}"`);
  if (i.mqtt !== undefined) out.push(`MQTT topic ${s.environment}/${i.mqtt}/…`);
  return out;
}

const hasRules = (n: NetworkIR | undefined) => !!n && !!(n.allowIps || n.denyIps || n.allowCountries || n.denyCountries || n.allowAsns || n.denyAsns || n.rateLimit);

export function inboundFindings(input: AuditInput, s: AuditSettings): Finding[] {
  const out: Finding[] = [];
  const { ir } = input;
  for (const i of ir.interfaces) {
    const path = ['interfaces', i.name];
    if (i.ws !== undefined && !i.public && !s.credentials) {
      out.push(at(input, [...path, 'ws'], {
        id: 'websocket-unreachable', severity: 'info', interface: i.name,
        message: `WebSocket interface "${i.name}" is not public and ${NO_CREDENTIALS}: no socket can reach it (serve says so at start)`,
        fix: `${SET_CREDENTIALS}, or set public: true if its data is public`,
      }));
    }
    const reach = surfacesOf(i, s);
    if (!reach.length) continue;
    const how = reach.join(', ');
    if (i.public) {
      out.push(at(input, path, {
        id: 'public-interface', severity: 'low', interface: i.name,
        message: `interface "${i.name}" (${how}) is public: true and answers without a credential${s.credentials ? ` although credentials are configured (${credentialWords(s)})` : ''}`,
        fix: 'keep public: true for non-sensitive data only; remove it to require an API key or JWT',
      }));
      const network = hasRules(i.network) || (hasRules(ir.settings.network) && i.network?.inherit !== false);
      if (!network) {
        out.push(at(input, path, {
          id: 'public-without-network-policy', severity: 'low', interface: i.name,
          message: `public interface "${i.name}" has no network: policy (no rate limit, no IP, country or ASN rule), from the config or its own`,
          fix: 'add network: { rate_limit: { requests: N, per: 1m } } (and IP/country rules where the callers are known) to the interface or the config',
        }));
      }
    } else if (!s.credentials) {
      out.push(at(input, path, {
        id: 'open-interface', severity: 'high', interface: i.name,
        message: `interface "${i.name}" (${how}) answers anyone: ${NO_CREDENTIALS}`,
        fix: SET_CREDENTIALS,
      }));
    }
  }
  out.push(...surfaceFindings(input, s), ...metricsFindings(input, s), ...captureFindings(input, s));
  return out;
}

/** WebSocket, MCP and MQTT: present or not, and what gates them. */
function surfaceFindings(input: AuditInput, s: AuditSettings): Finding[] {
  const out: Finding[] = [];
  const { ir } = input;
  const gate = s.credentials ? `a credential (${credentialWords(s)})` : `nothing (${NO_CREDENTIALS})`;
  const ws = ir.interfaces.filter((i) => i.ws !== undefined);
  if (ws.length) {
    const pub = ws.filter((i) => i.public).map((i) => i.name);
    const guarded = ws.filter((i) => i.subscribeAuthorizer).map((i) => i.name);
    out.push(at(input, ['interfaces', ws[0]!.name, 'ws'], {
      id: 'websocket-surface', severity: 'info',
      message: `WebSocket interfaces ${ws.map((i) => `"${i.name}"`).join(', ')} at /ws/${s.org}/${s.environment}/<interface>: ${s.credentials
        ? `the upgrade requires a credential (${credentialWords(s)}), frames pass the network policy`
        : `${NO_CREDENTIALS}: non-public ones take no socket`}${pub.length ? `; public (any socket): ${pub.join(', ')}` : ''}${guarded.length ? `; subscriptions decided by subscribe_authorizer on ${guarded.join(', ')}` : ''}`,
      fix: 'keep channels that carry private data behind subscribe_authorizer',
    }));
  }
  const mcp = ir.interfaces.filter((i) => i.mcp);
  if (mcp.length) {
    out.push(at(input, ['interfaces', mcp[0]!.name, 'mcp'], {
      id: 'mcp-surface', severity: 'info',
      message: `MCP tools ${mcp.map((i) => `"${i.mcp!.toolName}"`).join(', ')} at /${s.org}/${s.environment}/mcp: tools/list and tools/call require ${gate} (a public tool's interface takes none)`,
      fix: s.credentials ? 'nothing to do; tool arguments are request values like a body' : SET_CREDENTIALS,
    }));
  }
  const mqtt = ir.interfaces.filter((i) => i.mqtt !== undefined);
  const publishes = usesKind(input.config, 'mqtt_publish');
  if (mqtt.length || publishes) {
    const first = mqtt.length ? ['interfaces', mqtt[0]!.name, 'mqtt'] : ['interfaces'];
    const broker = s.mqttUrl
      ? 'the external broker of SERVICE__MQTT_URL (its own access control applies)'
      : `the embedded broker on TCP port ${s.mqttPort} and at /mqtt on the HTTP port; clients connect with ${s.credentials ? `a credential as the MQTT password (${credentialWords(s)})` : `no credential (${NO_CREDENTIALS}): anyone who reaches it can subscribe to # and read every mqtt_publish, or publish to trigger topics`}`;
    out.push(at(input, first, {
      id: 'mqtt-surface', severity: s.mqttUrl || s.credentials ? 'info' : 'medium',
      message: `MQTT ${mqtt.length ? `triggers ${mqtt.map((i) => `"${i.name}"`).join(', ')}` : 'publishes'} use ${broker}`,
      fix: s.mqttUrl ? 'give the service its own broker account with access to its topics only' : s.credentials ? 'firewall the broker port if only the HTTP port should be public' : SET_CREDENTIALS,
    }));
  }
  return out;
}

/** Channels are one namespace for the whole process: a socket of a WebSocket interface without a
 *  subscribe_authorizer could subscribe to a channel another interface guards with one (check refuses
 *  it within a config; across configs served together, the start does). */
export function subscriptionFindings(inputs: AuditInput[]): Finding[] {
  const ws = inputs.flatMap((input) => input.ir.interfaces.filter((i) => i.ws !== undefined).map((i) => ({ input, i })));
  const guarded = ws.filter(({ i }) => i.subscribeAuthorizer).map(({ i }) => `"${i.name}" (${i.subscribeAuthorizer})`);
  if (!guarded.length) return [];
  return ws.filter(({ i }) => !i.subscribeAuthorizer).map(({ input, i }) => at(input, ['interfaces', i.name, 'ws'], {
    id: 'unguarded-subscriptions', severity: 'high', interface: i.name,
    message: `WebSocket interface "${i.name}" has no subscribe_authorizer, so its sockets could subscribe to any channel, including those ${guarded.join(', ')} guards${i.public ? ' (and it is public)' : ''}; serve refuses to start these configs together`,
    fix: `give "${i.name}" the same subscribe_authorizer, or serve it from a process of its own`,
  }));
}

/** /metrics: open to anyone without credentials; label values taken from requests are visible there. */
function metricsFindings(input: AuditInput, s: AuditSettings): Finding[] {
  if (!input.ir.exposeMetrics) return [];
  const labels: string[] = [];
  walkMetrics(input.config, (labelPath, value) => { const r = untrustedRef(value); if (r) labels.push(`${labelPath} = ${r.src}`); });
  const open = !s.credentials || s.metricsPublic;
  return [at(input, ['expose_metrics'], {
    id: open ? 'metrics-open' : 'metrics-gated',
    severity: open ? (labels.length ? 'high' : 'medium') : 'info',
    message: open
      ? `/metrics answers without a credential (${s.credentials ? 'SERVICE__PUBLIC_METRICS=1' : NO_CREDENTIALS})${labels.length ? `; labels carry request values: ${labels.join(', ')}` : ': metric names, series and counts are public'}`
      : `/metrics requires a credential (${credentialWords(s)})`,
    fix: open ? `${s.credentials ? 'unset SERVICE__PUBLIC_METRICS' : SET_CREDENTIALS}; keep request values (emails, ids) out of metric labels` : 'nothing to do',
  })];
}

function captureFindings(input: AuditInput, s: AuditSettings): Finding[] {
  const out: Finding[] = [];
  for (const i of input.ir.interfaces) {
    const c = i.capture;
    const mode = isObj(c) ? c.mode : c;
    if (c === undefined || mode === 'off') continue;
    out.push(at(input, ['interfaces', i.name, 'capture'], {
      id: 'capture-on', severity: 'low', interface: i.name,
      message: `interface "${i.name}" captures ${mode === 'all' ? 'every run' : 'failed runs'} (request, action and response data, secrets redacted) into ${s.database ? 'Postgres' : 'memory'}; ${s.adminToken ? 'readable and replayable at /_ap/captures with SERVICE__ADMIN_TOKEN' : 'SERVICE__ADMIN_TOKEN is not set, so the capture routes are off'}`,
      fix: 'capture only while debugging (a window: capture: { mode: errors, for_minutes: 60 }), and keep SERVICE__ADMIN_TOKEN secret',
    }));
  }
  return out;
}

/** Whether any action (nested ones included) has the field `kind`. */
export function usesKind(config: unknown, kind: string): boolean {
  return interfaces(config).some((iface) => {
    let found = false;
    forEachAction(iface, (a) => { found ||= a.action[kind] !== undefined; });
    return found;
  });
}

function walkMetrics(config: unknown, visit: (labelPath: string, value: string) => void): void {
  const walk = (v: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (isObj(v)) {
      const m = v.emit_metric;
      if (isObj(m) && isObj(m.labels)) for (const [k, x] of Object.entries(m.labels)) if (typeof x === 'string') visit(`${String(m.name)}{${k}}`, x);
      for (const x of Object.values(v)) walk(x, depth + 1);
    }
  };
  walk(isObj(config) ? config.interfaces : undefined, 0);
}
