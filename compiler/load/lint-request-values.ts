// `check`'s half of the request-value rule (the table: compiler/markers/request-values.ts): each
// placement the table refuses is reported at its value with a hint pointing to the safe form.
import { parseMarkers, type Part } from '../markers/parse.ts';
import { splitWords, WordError } from '../markers/words.ts';
import { chosenDestination, CODE_ENV, commandFindings, isRequestRef, secretRefs, shellCommands, type CommandFinding } from '../markers/request-values.ts';
import { reservedNamespace } from '../../runtime/values/namespace.ts';
import type { ConfigPath } from '../source/yaml.ts';
import { forEachAction, isObj, type ActionSite, type InterfaceSite, type Obj } from './walk.ts';
import type { Report } from './report.ts';

const SEE = 'docs/interpolation.md, "Where request values may go"';

export function lintRequestValues(config: Obj, ifaces: InterfaceSite[], report: Report, env: NodeJS.ProcessEnv = process.env): void {
  if (isObj(config.databases)) {
    for (const [name, d] of Object.entries(config.databases)) if (isObj(d)) connString(d.url, ['databases', name, 'url'], report);
  }
  for (const iface of ifaces) {
    forEachAction(iface, (site) => {
      const a = site.action;
      if (isObj(a.command)) command(a.command.run, [...site.path, 'command', 'run'], report, a.command.shell !== undefined && a.command.shell !== false);
      if (isObj(a.command) && isObj(a.command.env)) codeEnv(a.command.env, [...site.path, 'command', 'env'], report);
      connString(a.conn_string, [...site.path, 'conn_string'], report);
      if (a.http !== undefined || a.url !== undefined) http(site, report, env);
      if (isObj(a.sftp)) sftp(a.sftp, site, report);
      if (isObj(a.agent)) agent(a.agent, site, report);
      if (isObj(a.document_operation)) documents(a.document_operation, [...site.path, 'document_operation'], report);
      if (isObj(a.state)) namespace(a.state.namespace, [...site.path, 'state', 'namespace'], report);
      if (isObj(a.only_new)) namespace(a.only_new.namespace, [...site.path, 'only_new', 'namespace'], report);
      if (isObj(a.agent) && isObj(a.agent.memory)) namespace(a.agent.memory.namespace, [...site.path, 'agent', 'memory', 'namespace'], report);
      if (isObj(a.mqtt_publish)) topics(a.mqtt_publish.topics, [...site.path, 'mqtt_publish', 'topics'], report);
      if (isObj(a.ws_publish)) channels(a.ws_publish.channels, [...site.path, 'ws_publish', 'channels'], report);
    });
  }
}

const partsOf = (v: unknown): Part[] => (typeof v === 'string' ? parseMarkers(v) : []);
const firstRequest = (v: unknown) => partsOf(v).find(isRequestRef);

/** Code: a request marker in an interpreter's script (or script file), or as a program run through a wrapper. */
function command(run: unknown, at: ConfigPath, report: Report, shell: boolean): void {
  if (typeof run !== 'string') return;
  const parts = parseMarkers(run);
  const findings: CommandFinding[] = [];
  // With shell:, each simple command of the script is read the same way (eval "$1", sh -c "$1"), and
  // a marker as a command's own word would run the program the request names.
  for (const cmd of shell ? shellCommands(parts) : [parts]) {
    try {
      const words = splitWords(cmd);
      const head = shell ? words[0]?.find(isRequestRef) : undefined;
      if (head) findings.push({ kind: 'program', ref: head, program: '' });
      findings.push(...commandFindings(words).filter((f) => !shell || f.kind !== 'option'));
    } catch (e) { if (!(e instanceof WordError)) throw e; }
  }
  for (const f of findings) {
    const src = f.ref.src;
    if (f.kind === 'code') {
      report('error', at, `${src} is inside the script that ${f.program} runs: the request's text would run as code`,
        shell ? `the marker reaches the script as "$n", one word: use it as data, never through eval or another shell's -c`
          : `write the script with shell: true (each marker then reaches the shell as "$1", "$2", ..., never as code), or pass the value as a separate argument ("$1" in sh -c, sys.argv in python) or in command.env`, 'value');
    } else if (f.kind === 'script-file') {
      report('error', at, `${src} names the script file that ${f.program} runs: the request would choose the code`, 'write the script\'s path in the config; pass request values as the arguments after it', 'value');
    } else if (f.kind === 'program') {
      report('error', at, `${src} cannot choose the program to run (${f.program ? `it follows ${f.program}, which runs the program it names` : 'it is the command word of the shell script'})`, 'name the program in the config; request values can only be arguments', 'value');
    } else {
      report('warning', at, `${src} is a whole argument of ${f.program || 'the program'}: a value starting with - would be read as an option (--version, --output=...)`,
        `write -- before it (${f.program || 'ls'} -- ${src}) if the program takes --, or put literal text before the marker`, 'value');
    }
  }
}

/** command.env: variables a loader, runtime or shell reads as code take no request value. */
function codeEnv(env: Obj, at: ConfigPath, report: Report): void {
  for (const [k, v] of Object.entries(env)) {
    const r = CODE_ENV.has(k.toUpperCase()) ? firstRequest(v) : undefined;
    if (r) report('error', [...at, k], `${r.src} cannot set ${k}: it is read as code (or as where code is found) by the program, its runtime or the loader`, 'pass the value in a variable of your own name (env: { INPUT: a|body::x| })', 'value');
  }
}

function connString(v: unknown, at: ConfigPath, report: Report): void {
  const r = firstRequest(v);
  if (r) report('error', at, `${r.src} cannot be written into a connection string: it would choose the database, its host and where the credentials go`, 'write the connection string in the config (a|secret::DB_URL| or a|var::…|); pass request values to the query as params', 'value');
}

/** Credentials to a chosen host: the destination is request-chosen and the settings carry a secret. */
function http(site: ActionSite, report: Report, env: NodeJS.ProcessEnv): void {
  const a = site.action;
  const h: Obj = isObj(a.http) ? a.http : {};
  const url = h.url ?? a.url;
  const urlAt = [...site.path, ...(isObj(a.http) && h.url !== undefined ? ['http', 'url'] : ['url'])];
  const urlParts = partsOf(url);
  const dest = chosenDestination(urlParts);
  // A base marker followed by more host text is refused by lowering, with its own message.
  const next = urlParts[1];
  if (dest && next !== undefined && !(typeof next === 'string' && /^[/?#]/.test(next))) return;
  const proxy = chosenDestination(partsOf(h.proxy));
  const chosen = dest ?? proxy;
  if (!chosen) return;
  const settings = { ...h, url };
  const secret = secretRefs(settings, parseMarkers)[0];
  const creds = ['bearer_auth', 'user', 'pass', 'digest_auth_user', 'digest_auth_pass'].filter((k) => typeof h[k] === 'string' && h[k] !== '');
  if (!secret && !creds.length) return;
  const what = creds.length ? creds.join(', ') : secret!.src;
  const at = dest ? urlAt : [...site.path, 'http', 'proxy'];
  const allow = (env.SERVICE__OUTBOUND_ALLOW ?? '').trim();
  const msg = `${chosen.src} chooses where action "${site.name}" sends its credential (${what}): a caller could have it sent to a host of theirs`;
  if (allow) report('warning', at, `${msg}; SERVICE__OUTBOUND_ALLOW (${allow}) limits the hosts`, 'write the host in the config (https://api.example.com/a|body::id|) so the credential goes only there', 'value');
  else report('error', at, msg, `write the host in the config (https://api.example.com/a|body::id|: the marker then fills one path segment), or set SERVICE__OUTBOUND_ALLOW to the hosts it may reach; see ${SEE}`, 'value');
}

function sftp(s: Obj, site: ActionSite, report: Report): void {
  const r = firstRequest(s.host);
  if (!r) return;
  const secret = secretRefs([s.password, s.private_key, s.private_key_passphrase, s.user], parseMarkers)[0];
  if (!secret && s.password === undefined && s.private_key === undefined) return;
  report('error', [...site.path, 'sftp', 'host'], `${r.src} chooses the host action "${site.name}" logs in to with the operator's password or key`, 'write the host in the config (a|var::SFTP_HOST| may supply it); request values can choose the path', 'value');
}

function agent(g: Obj, site: ActionSite, report: Report): void {
  const check = (url: unknown, headers: unknown, at: ConfigPath) => {
    const r = chosenDestination(partsOf(url));
    const secret = r && secretRefs(headers, parseMarkers)[0];
    if (r && secret) report('error', at, `${r.src} chooses where action "${site.name}" sends its credential (${secret.src})`, 'write the model or MCP server URL in the config (a|var::…| may supply it)', 'value');
  };
  check(g.url, g.headers, [...site.path, 'agent', 'url']);
  if (Array.isArray(g.mcp)) g.mcp.forEach((m, i) => { if (isObj(m)) check(m.url, m.headers, [...site.path, 'agent', 'mcp', i, 'url']); });
}

/** Document filters: a whole filter (or an element of $and/$or) from a request; a request-chosen collection. */
function documents(d: Obj, at: ConfigPath, report: Report): void {
  const c = firstRequest(d.collection);
  if (c) report('error', [...at, 'collection'], `${c.src} cannot choose the collection: a caller could read or delete any table of the database`, 'write the collection in the config; put the request value in the filter (filter: {tenant: a|body::tenant|})', 'value');
  const whole = (v: unknown, path: ConfigPath): void => {
    if (typeof v !== 'string') return;
    const parts = partsOf(v);
    if (parts.length === 1 && isRequestRef(parts[0]!)) {
      report('error', path, `${parts[0].src} would be read as a filter: a caller could write any condition ({"$ne": null} matches every document)`, 'write the filter in the config with the value under its field (filter: {user: a|body::user|}): it is then matched as a literal', 'value');
    }
  };
  const walk = (f: unknown, path: ConfigPath, depth: number): void => {
    whole(f, path);
    if (!isObj(f) || depth > 32) return;
    for (const k of ['$and', '$or']) {
      const list = f[k];
      whole(list, [...path, k]);
      if (Array.isArray(list)) list.forEach((x, i) => walk(x, [...path, k, i], depth + 1));
    }
  };
  walk(d.filter, [...at, 'filter'], 0);
}

function namespace(v: unknown, at: ConfigPath, report: Report): void {
  if (typeof v !== 'string') return;
  const r = firstRequest(v);
  if (r) report('error', at, `${r.src} cannot choose the namespace: a caller could read and write another namespace's state (agent conversations, retained channel values)`, 'write the namespace in the config and put the request value in the key (key: user-a|body::id|)', 'value');
  const parts = parseMarkers(v);
  const reserved = typeof parts[0] === 'string' ? reservedNamespace(parts[0]) : undefined;
  if (reserved !== undefined && (parts.length === 1 || reserved.endsWith(':') || reserved.endsWith('/'))) {
    report('error', at, `namespace ${JSON.stringify(v)} is reserved for the service (${reserved})`, 'choose another namespace; ws-retain, _ap/... and agent-memory:... hold the service\'s own state', 'value');
  }
}

/** MQTT topics: a request marker in the first level (or the whole topic) could reach the service's own trigger topics. */
function topics(v: unknown, at: ConfigPath, report: Report): void {
  const list: Array<[unknown, ConfigPath]> = typeof v === 'string' ? [[v, at]] : Array.isArray(v) ? v.map((t, i): [unknown, ConfigPath] => [t, [...at, i]]) : [];
  for (const [t, path] of list) {
    const parts = partsOf(t);
    const first: Part[] = [];
    for (const p of parts) { if (typeof p === 'string' && p.includes('/')) { first.push(p.slice(0, p.indexOf('/'))); break; } first.push(p); }
    const r = first.find(isRequestRef);
    if (r) report('error', path, `${r.src} is in the first level of the topic: a caller could publish into any topic tree, the service's own trigger topics included`, 'write the first level in the config (devices/a|body::id|/cmd): each marker then fills exactly one level', 'value');
  }
}

/** WebSocket channels: a whole channel name from a request can publish into any channel. A warning,
 *  not an error: a publish endpoint that takes its channels from the (authenticated) caller is a
 *  common design, and subscribers stay behind their subscribe_authorizer. */
function channels(v: unknown, at: ConfigPath, report: Report): void {
  const list: Array<[unknown, ConfigPath]> = typeof v === 'string' ? [[v, at]] : Array.isArray(v) ? v.map((c, i): [unknown, ConfigPath] => [c, [...at, i]]) : [];
  for (const [c, path] of list) {
    const parts = partsOf(c);
    if (parts.length === 1 && isRequestRef(parts[0])) {
      report('warning', path, `${parts[0].src} chooses the whole channel: a caller can publish into any channel, another user's or a guarded one`, 'write a prefix in the config (channels: room-a|body::room|) so callers reach only that family of channels', 'value');
    }
  }
}
