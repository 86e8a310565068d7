// The one rule for request values in dangerous places. A value that comes from a request (body,
// raw_body, params, headers), from an upstream's answer or another action's result, or from the
// key/value state (which runs write) must never choose code, a destination for the operator's
// credentials, or a storage or routing name. Each place is one row of PLACEMENTS: the marker is
// refused at `check` (compiler/load/lint-request-values.ts; a few rows by lowering, which keeps
// their messages), confined at run time to one unit (the runtime operation named in the row, called
// by both paths), or free. docs/interpolation.md shows the table; test/security/placements.property
// .test.ts holds `check` to it for every string field of the schema.
import type { Part } from './parse.ts';
import type { Ref, RefRoot } from '../../runtime/ir.ts';

/** Who writes a marker's value: the operator's configuration, the operator's secrets, or the run. */
export type Source = 'config' | 'secret' | 'request' | 'generated';

const SOURCES: Record<RefRoot, Source> = {
  var: 'config', ap_var: 'config', env: 'config',
  secret: 'secret', ap_secret: 'secret',
  body: 'request', raw_body: 'request', params: 'request', headers: 'request', action: 'request', state: 'request',
  uuid: 'generated',
};

export const sourceOf = (root: RefRoot): Source => SOURCES[root];
export const isConfigRoot = (root: RefRoot): boolean => SOURCES[root] === 'config';
/** A marker whose value a caller (or an upstream) can choose. */
export const isRequestRef = (p: Part | undefined): p is Ref => p !== undefined && typeof p !== 'string' && SOURCES[p.root] === 'request';

export type Outcome = 'refused' | 'confined' | 'free';

export interface Placement {
  /** The field under an action (`http.url`, `document_operation.filter.<field>`) or the config (`databases.<name>.url`). */
  field: string;
  /** The same as dotted paths under an action, for tools (the property test); `<field>` rows have none. */
  paths: readonly string[];
  /** The row holds only when the action carries an operator credential (bearer_auth, user/pass, digest, a secret marker). */
  withCredential?: boolean;
  /** A request marker that is the whole value. */
  whole: Outcome;
  /** A request marker after literal text the config writes (`prefix`, the example the property test uses). */
  part: Outcome;
  prefix?: string;
  /** What a confined value is held to, and by which runtime operation. */
  unit?: string;
  /** Which check refuses it: this rule's lint, or lowering (rows older than the table keep their messages). */
  by?: 'lint' | 'lower';
  why: string;
}

/** The table. Fields not listed are free: the value is data (sent, stored, compared), never code or a name. */
export const PLACEMENTS: readonly Placement[] = [
  { field: 'command.run', paths: ['command.run'], whole: 'refused', part: 'free', prefix: 'echo ', by: 'lower', why: 'the program word is the config\'s; an argument is one argv entry (shell: true passes values as "$1"); inside an interpreter\'s script (sh -c, node -e, python -c, ...) or as its script file it is code: refused; with shell:, the same per simple command, and a marker as a command word' },
  { field: 'command.env.<NAME> (NAME one of CODE_ENV: LD_PRELOAD, NODE_OPTIONS, BASH_ENV, PYTHONPATH, PATH, ...)', paths: [], whole: 'refused', part: 'refused', why: 'the loader, the runtime or the shell reads these as code or as where code comes from' },
  { field: 'command.cwd', paths: ['command.cwd'], whole: 'refused', part: 'refused', prefix: '/tmp/', by: 'lower', why: 'chooses which files a program reaches' },
  { field: 'query', paths: ['query'], whole: 'refused', part: 'refused', prefix: 'SELECT ', by: 'lower', why: 'SQL text: bind the value with params' },
  { field: 'conn_string', paths: ['conn_string'], whole: 'refused', part: 'refused', prefix: 'postgres://db.example/app?x=', why: 'chooses the database, its host and the credentials sent there' },
  { field: 'databases.<name>.url', paths: [], whole: 'refused', part: 'refused', prefix: 'postgres://db.example/app?x=', why: 'as conn_string' },
  { field: 'http.url', paths: ['http.url', 'url'], whole: 'free', part: 'confined', prefix: 'http://api.example/', unit: 'one path segment, query name or value, or fragment (runtime/values/escape.ts); a whole-URL or base marker is held to SERVICE__OUTBOUND_ALLOW/DENY; in the scheme or host: refused (lowering)', by: 'lower', why: 'chooses where the call goes' },
  { field: 'http.url, url, http.proxy (with a credential)', paths: ['http.url', 'url', 'http.proxy'], withCredential: true, whole: 'refused', part: 'confined', prefix: 'http://api.example/', why: 'a request-chosen destination (whole url, base marker, or proxy) with bearer_auth, user/pass, digest, or any a|secret::| in the settings sends the operator\'s credential to the caller\'s host; refused unless the host is written in the config (a warning when SERVICE__OUTBOUND_ALLOW is set where check runs)' },
  { field: 'http.body', paths: ['http.body'], whole: 'free', part: 'confined', prefix: '{"id": "', unit: 'one JSON string or value when the text is a JSON template (starts with { or [): the escaping custom_body has (runtime/values/escape.ts json-string/json)', why: 'a quote in the value would add fields' },
  { field: 'sftp.host (with a credential)', paths: ['sftp.host'], withCredential: true, whole: 'refused', part: 'refused', prefix: 'sftp-', why: 'sends password or private key to the caller\'s host' },
  { field: 'agent.url, agent.mcp[].url (with a credential)', paths: ['agent.url'], withCredential: true, whole: 'refused', part: 'confined', prefix: 'http://model.example/', why: 'sends the model\'s credential headers to the caller\'s host' },
  { field: 'document_operation.filter', paths: ['document_operation.filter'], whole: 'refused', part: 'free', why: 'a whole filter (or an element of $and/$or) from a request is a query the caller writes' },
  { field: 'document_operation.filter.<field>', paths: [], whole: 'confined', part: 'free', prefix: 'x', unit: 'a literal match ($eq): operators apply only where the config writes them (compiler/lower/confine.ts, runtime/actions/document/filter.ts)', why: '{"$ne": null} would match every document' },
  { field: 'document_operation.collection', paths: ['document_operation.collection'], whole: 'refused', part: 'refused', prefix: 'c-', why: 'a storage name: the caller could read or delete any table of the database' },
  { field: 'state.namespace, only_new.namespace, agent.memory.namespace', paths: ['state.namespace', 'only_new.namespace', 'agent.memory.namespace'], whole: 'refused', part: 'refused', prefix: 'tenant-', unit: 'reserved namespaces (ws-retain, _ap/, agent-memory:) are refused in the config and at run time (runtime/values/namespace.ts)', why: 'a storage name: another config\'s state, retained channels, agent conversations' },
  { field: 'ws_publish.channels', paths: ['ws_publish.channels'], whole: 'free', part: 'free', prefix: 'room-', unit: 'check warns at a whole channel from a request (a prefix the config writes keeps it to one family of channels)', why: 'a routing name, but a publish endpoint taking its channels from an authenticated caller is a common design, and subscribers stay behind subscribe_authorizer' },
  { field: 'mqtt_publish.topics', paths: ['mqtt_publish.topics'], whole: 'refused', part: 'confined', prefix: 'devices/', unit: 'one topic level: /, +, #, NUL, empty or a leading $ is 400 (runtime/values/topic.ts); a marker in the first level is refused at check', why: 'a routing name: the service\'s own trigger topics, $SYS' },
];

/** Environment variables a loader, runtime or shell reads as code (or as where code is found). */
export const CODE_ENV = new Set(['LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'PS4', 'PATH',
  'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONINSPECT', 'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS',
  'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_CONFIG_PARAMETERS', 'EDITOR', 'VISUAL', 'PAGER', 'LESSOPEN', 'GCONV_PATH', 'HOSTALIASES', 'PHPRC', 'PHP_INI_SCAN_DIR']);

// ---- command lines ----------------------------------------------------------------------------

/** Programs that run their next word as code, and the flags that say so (single-dash letters may be combined: -ec, -ne). */
interface Interp { /** every argument is code (eval) */ all?: boolean; letters?: string; long?: string[]; /** the rest of the line is the command (cmd /c, pwsh -Command) */ rest?: boolean; /** with no flag, the first operand is the program text (awk, sed), not a file */ inline?: boolean }
const SHELL: Interp = { letters: 'c' };
const INTERPRETERS: Record<string, Interp> = {
  sh: SHELL, bash: SHELL, zsh: SHELL, dash: SHELL, ksh: SHELL, mksh: SHELL, ash: SHELL, fish: SHELL, csh: SHELL, tcsh: SHELL, rbash: SHELL,
  node: { letters: 'ep', long: ['--eval', '--print'] }, nodejs: { letters: 'ep', long: ['--eval', '--print'] }, bun: { letters: 'e', long: ['--eval', '--print'] }, deno: { long: ['eval'] },
  python: { letters: 'c' }, python2: { letters: 'c' }, python3: { letters: 'c' }, pypy: { letters: 'c' }, pypy3: { letters: 'c' },
  perl: { letters: 'eE' }, ruby: { letters: 'e' }, php: { letters: 'rR' }, lua: { letters: 'e' }, luajit: { letters: 'e' }, Rscript: { letters: 'e' }, R: { letters: 'e' },
  tclsh: {}, wish: {}, osascript: { letters: 'e' }, jjs: {}, groovy: { letters: 'e' }, scala: { letters: 'e' },
  pwsh: { long: ['-c', '-command', '-encodedcommand', '-ec', '-e'], rest: true }, powershell: { long: ['-c', '-command', '-encodedcommand', '-ec', '-e'], rest: true },
  cmd: { long: ['/c', '/k', '/r'], rest: true }, 'cmd.exe': { long: ['/c', '/k', '/r'], rest: true },
  eval: { all: true }, source: {}, '.': {},
  awk: { letters: '', inline: true }, gawk: { inline: true }, mawk: { inline: true }, nawk: { inline: true },
  sed: { letters: 'e', long: ['--expression'], inline: true }, gsed: { letters: 'e', long: ['--expression'], inline: true },
};
/** Programs that run the program named by a later word (env sh -c ...): their options and settings are skipped. */
/** Options of wrappers that take a value as the next word (nice -n 5, sudo -u root, timeout -s KILL). */
const VALUE_OPTIONS: Record<string, string[]> = { nice: ['-n'], env: ['-u', '-C', '--unset', '--chdir'], sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'], doas: ['-u', '-C'], timeout: ['-s', '-k', '--signal', '--kill-after'], ionice: ['-c', '-n', '-p'], stdbuf: ['-i', '-o', '-e'], chrt: ['-p'], taskset: ['-p'], flock: ['-w', '-E'], xargs: ['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a'], strace: ['-e', '-o', '-p', '-s'], watch: ['-n', '-d'] };
const WRAPPERS: Record<string, number> = { env: 0, nice: 0, nohup: 0, time: 0, timeout: 1, sudo: 0, doas: 0, stdbuf: 0, setsid: 0, xargs: 0, busybox: 0, command: 0, exec: 0, ionice: 0, chrt: 1, taskset: 1, unbuffer: 0, chroot: 1, flock: 1, strace: 0, ltrace: 0, watch: 0 };

/** Programs whose options only change how they print (echo -n, -e): no `--` warning. */
const HARMLESS_OPTIONS = new Set(['echo']);

export interface CommandFinding {
  kind: 'program' | 'code' | 'script-file' | 'option';
  ref: Ref;
  /** The program the word belongs to (basename). */
  program: string;
}

const literal = (w: Part[]): string | undefined => (w.every((p) => typeof p === 'string') ? (w as string[]).join('') : undefined);
const base = (s: string): string => s.slice(s.lastIndexOf('/') + 1).replace(/\.exe$/i, '').replace(/^(python|pypy)\d+(\.\d+)*$/, '$1').replace(/^(python)\d+(\.\d+)+$/, '$1');

/** Where request markers land in a command line's words (shell: false): as the program (after a
 *  wrapper such as env), in an interpreter's inline script or script file, or as a whole argument
 *  that a value starting with `-` would turn into an option (no `--` before it). */
export function commandFindings(words: Part[][]): CommandFinding[] {
  const out: CommandFinding[] = [];
  let i = 0;
  // Skip wrappers (env, nice, timeout 5, ...) to the program they run.
  for (;;) {
    const name = literal(words[i] ?? []);
    const w = name === undefined ? undefined : WRAPPERS[base(name)];
    if (w === undefined || i + 1 >= words.length) break;
    i++;
    let skip = w;
    while (i < words.length) {
      const lit = literal(words[i]!);
      if (lit !== undefined && lit.startsWith('-')) { i += VALUE_OPTIONS[base(name!)]?.includes(lit) ? 2 : 1; continue; }
      if (lit !== undefined && base(name!) === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(lit)) { i++; continue; }
      if (skip > 0) { skip--; i++; continue; }
      break;
    }
    const next = words[i];
    if (next && i > 0) for (const p of next) if (isRequestRef(p)) out.push({ kind: 'program', ref: p, program: base(name!) });
  }
  const prog = literal(words[i] ?? []);
  const program = prog === undefined ? '' : base(prog);
  const interp = Object.hasOwn(INTERPRETERS, program) ? INTERPRETERS[program] : undefined;
  let dashdash = false;
  let scriptAt = -1;
  if (interp?.all) { for (let k = i + 1; k < words.length; k++) flag(out, words[k]!, 'code', program); return out; }
  for (let j = i + 1; j < words.length; j++) {
    const w = words[j]!;
    const lit = literal(w);
    if (interp && scriptAt < 0) {
      if (lit !== undefined && !dashdash) {
        const lower = lit.toLowerCase();
        if (lit === '--') { dashdash = true; continue; }
        const isFlag = interp.long?.some((f) => lower === f || (f.length > 3 && lower.startsWith(f))) || (/^-[A-Za-z]+$/.test(lit) && !!interp.letters && [...lit.slice(1)].some((c) => interp.letters!.includes(c)));
        if (isFlag) { scriptAt = j + 1; if (interp.rest) { for (let k = j + 1; k < words.length; k++) flag(out, words[k]!, 'code', program); scriptAt = words.length; } else if (words[j + 1]) flag(out, words[j + 1]!, 'code', program); j++; continue; }
        if (lit.startsWith('-')) continue;
      }
      // The first operand: the program text (awk, sed) or the script file (sh x.sh, python x.py).
      flag(out, w, interp.inline ? 'code' : 'script-file', program);
      scriptAt = j;
      continue;
    }
    if (lit === '--') { dashdash = true; continue; }
    const head = w[0];
    if (!dashdash && !interp && !HARMLESS_OPTIONS.has(program) && isRequestRef(head)) out.push({ kind: 'option', ref: head, program });
  }
  return out;
}

function flag(out: CommandFinding[], word: Part[], kind: 'code' | 'script-file', program: string): void {
  for (const p of word) if (isRequestRef(p)) out.push({ kind, ref: p, program });
}

/** A `shell:` script's simple commands (split at unquoted ; & | newline and parentheses), each as
 *  words: a marker there reaches the shell as "$n", which `eval` or `sh -c` would still run as code. */
export function shellCommands(parts: Part[]): Part[][] {
  const cmds: Part[][] = [[]];
  let quote: '' | "'" | '"' = '';
  for (const part of parts) {
    if (typeof part !== 'string') { cmds.at(-1)!.push(part); continue; }
    let lit = '';
    for (let i = 0; i < part.length; i++) {
      const ch = part[i]!;
      if (quote) { if (ch === quote) quote = ''; else if (ch === '\\' && quote === '"') { lit += ch + (part[++i] ?? ''); continue; } lit += ch; continue; }
      if (ch === "'" || ch === '"') { quote = ch; lit += ch; continue; }
      if (ch === '\\') { lit += ch + (part[++i] ?? ''); continue; }
      if (';&|\n()`'.includes(ch) || (ch === '$' && part[i + 1] === '(')) { if (lit) cmds.at(-1)!.push(lit); lit = ''; cmds.push([]); if (ch === '$') i++; continue; }
      lit += ch;
    }
    if (lit) cmds.at(-1)!.push(lit);
  }
  return cmds.filter((c) => c.length);
}

// ---- URLs and destinations --------------------------------------------------------------------

/** The request marker that chooses a URL's scheme, host or port: the whole value, or the marker that
 *  starts it (a base: `a|body::u|/path`). A host written in the config pins the destination. */
export function chosenDestination(parts: Part[]): Ref | undefined {
  const head = parts[0];
  return head !== undefined && isRequestRef(head) ? head : undefined;
}

/** Every marker of a secret (a|secret::…|, a|ap_secret::…|) in a value, at any depth. */
export function secretRefs(v: unknown, parse: (s: string) => Part[], out: Ref[] = [], depth = 0): Ref[] {
  if (depth > 32) return out;
  if (typeof v === 'string') for (const p of parse(v)) { if (typeof p !== 'string' && SOURCES[p.root] === 'secret') out.push(p); }
  else if (Array.isArray(v)) for (const x of v) secretRefs(x, parse, out, depth + 1);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) secretRefs(x, parse, out, depth + 1);
  return out;
}

/** The row for a field under an action (a credential row first when the action carries one); none: free. */
export function placementOf(path: string, withCredential: boolean): Placement | undefined {
  const rows = PLACEMENTS.filter((r) => r.paths.includes(path));
  return (withCredential ? rows.find((r) => r.withCredential) : undefined) ?? rows.find((r) => !r.withCredential);
}
