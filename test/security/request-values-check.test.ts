// Issue 29, section 3: `check` refuses request values where they would choose code, a destination
// for the operator's credentials, or a storage or routing name (the table: compiler/markers/
// request-values.ts), each at its value with a code frame and a hint pointing to the safe form.
import { afterEach, describe, expect, it } from 'vitest';
import { compileConfig } from '../../compiler/project.ts';
import { formatDiagnostic } from '../../compiler/load/index.ts';

const action = (yaml: string) => `
interfaces:
  x:
    method: POST
    actions:
      - name: Fetch
        input: { body: { x: 1 } }
      - name: A
${yaml.trim().split('\n').map((l) => `        ${l}`).join('\n')}
        output: http
`;

function check(yaml: string) {
  const c = compileConfig('t.yaml', yaml);
  return { ok: c.ok, errors: c.diagnostics.filter((d) => d.severity === 'error'), warnings: c.diagnostics.filter((d) => d.severity === 'warning'), text: c.diagnostics.map((d) => formatDiagnostic(d, yaml)).join('\n') };
}

describe('code: a request marker inside an interpreter\'s script', () => {
  const scripts = [
    `/bin/sh -c 'echo a|body::t|'`, `sh -c "echo a|body::t|"`, `bash -c 'echo a|body::t|'`, `bash -ec 'echo a|body::t|'`, `zsh -c 'a|body::t|'`,
    `node -e 'console.log(a|body::t|)'`, `node --eval 'x(a|body::t|)'`, `python -c 'print(a|body::t|)'`, `python3 -c 'print("a|body::t|")'`,
    `/usr/bin/python3.11 -c 'a|body::t|'`, `perl -e 'print a|body::t|'`, `perl -ne 'a|body::t|'`, `ruby -e 'puts a|body::t|'`, `php -r 'echo a|body::t|;'`,
    `pwsh -c 'Write-Output a|body::t|'`, `pwsh -Command Write-Output a|body::t|`, `cmd /c echo a|body::t|`, `env sh -c 'echo a|body::t|'`,
    `env FOO=1 LANG=C /bin/bash -c 'echo a|body::t|'`, `timeout 5 sh -c 'a|body::t|'`, `nice -n 5 python3 -c 'a|body::t|'`,
    `awk 'a|body::t|'`, `sed -e 'a|body::t|' f`, `sh -c 'echo a|Fetch::body.x|'`, `sh -c 'echo a|headers::x-t|'`, `sh -c 'echo a|params::t|'`,
  ];
  it.each(scripts)('%s is refused with a hint to shell: true', (run) => {
    const r = check(action(`command: { run: ${JSON.stringify(run)} }`));
    expect(r.ok).toBe(false);
    expect(r.errors.map((d) => d.message).join('\n')).toMatch(/is inside the script that \S+ runs: the request's text would run as code/);
    expect(r.errors[0]!.hint).toContain('shell: true');
    expect(r.errors[0]!.line).toBe(9);
    expect(r.text).toMatch(/>\s+9 \|/);
  });

  it('the issue\'s reproduction prints file:line:col, a code frame and the hint', () => {
    const r = check(action(`command: { run: "/bin/sh -c 'echo a|body::t|'" }`));
    expect(r.text).toContain('t.yaml:9:25: error: a|body::t| is inside the script that sh runs');
    expect(r.text).toContain('hint: write the script with shell: true');
  });

  it('a script file chosen by the request, and a program chosen after a wrapper, are refused', () => {
    expect(check(action(`command: { run: "python3 a|body::file|" }`)).errors[0]!.message).toContain('names the script file that python runs');
    expect(check(action(`command: { run: "sh a|body::file| x" }`)).errors[0]!.message).toContain('names the script file that sh runs');
    expect(check(action(`command: { run: "env a|body::prog| x" }`)).errors[0]!.message).toContain('cannot choose the program to run');
  });

  it('stays quiet where values are arguments: after the script, shell: true, config values in the script', () => {
    for (const run of [`sh -c 'echo "$1"' sh a|body::t|`, `python3 script.py a|body::t|`, `bash -c 'echo a|var::X|'`, `sh -c 'echo hi' -- a|body::t|`]) {
      expect(check(action(`command: { run: ${JSON.stringify(run)} }`)).errors).toEqual([]);
    }
    const shell = check(action(`command: { run: "echo a|body::t| | tr a-z A-Z", shell: true }`));
    expect(shell.ok).toBe(true);
    expect(shell.warnings).toEqual([]);
  });

  it('a whole argument that a value starting with - would make an option is a warning pointing to --', () => {
    const r = check(action(`command: { run: "ls a|body::t|" }`));
    expect(r.ok).toBe(true);
    expect(r.warnings.map((d) => d.message)).toEqual(['a|body::t| is a whole argument of ls: a value starting with - would be read as an option (--version, --output=...)']);
    expect(r.warnings[0]!.hint).toContain('ls -- a|body::t|');
    for (const run of ['ls -- a|body::t|', 'ls ./a|body::t|', 'echo a|body::t|']) expect(check(action(`command: { run: ${JSON.stringify(run)} }`)).warnings).toEqual([]);
  });
});

describe('credentials to a chosen host', () => {
  const saved = process.env.SERVICE__OUTBOUND_ALLOW;
  afterEach(() => { if (saved === undefined) delete process.env.SERVICE__OUTBOUND_ALLOW; else process.env.SERVICE__OUTBOUND_ALLOW = saved; });
  const creds = [
    'bearer_auth: a|secret::TOK|', 'user: svc, pass: a|secret::PW|', 'digest_auth_user: svc, digest_auth_pass: a|secret::PW|',
    'headers: { x-api-key: a|secret::KEY| }', 'headers: { authorization: "Bearer a|secret::TOK|" }', 'body: { key: a|ap_secret::K| }',
  ];
  it.each(creds)('url: a|body::cb| with %s is refused', (c) => {
    delete process.env.SERVICE__OUTBOUND_ALLOW;
    const r = check(action(`http: { url: a|body::cb|, ${c} }`));
    expect(r.ok).toBe(false);
    expect(r.errors[0]!.message).toMatch(/^a\|body::cb\| chooses where action "A" sends its credential \(.+\): a caller could have it sent to a host of theirs$/);
    expect(r.errors[0]!.hint).toContain('write the host in the config');
  });

  it('a base marker, a query secret and a chosen proxy count; a pinned host does not', () => {
    delete process.env.SERVICE__OUTBOUND_ALLOW;
    expect(check(action(`http: { url: "a|body::base|/v1/items", bearer_auth: a|secret::TOK| }`)).ok).toBe(false);
    expect(check(action(`url: "a|params::u|?key=a|secret::KEY|"`)).ok).toBe(false);
    expect(check(action(`http: { url: https://api.example.com/x, proxy: a|body::p|, bearer_auth: a|secret::TOK| }`)).errors[0]!.message).toContain('a|body::p| chooses where');
    expect(check(action(`http: { url: "https://api.example.com/users/a|body::id|", bearer_auth: a|secret::TOK| }`)).ok).toBe(true);
    expect(check(action(`http: { url: "a|var::API|/users/a|body::id|", bearer_auth: a|secret::TOK| }`)).ok).toBe(true);
    expect(check(action(`http: { url: a|body::cb| }`)).ok).toBe(true);
  });

  it('with SERVICE__OUTBOUND_ALLOW set where check runs, it is a warning naming the list', () => {
    process.env.SERVICE__OUTBOUND_ALLOW = '*.example.com';
    const r = check(action(`http: { url: a|body::cb|, bearer_auth: a|secret::TOK| }`));
    expect(r.ok).toBe(true);
    expect(r.warnings[0]!.message).toContain('SERVICE__OUTBOUND_ALLOW (*.example.com) limits the hosts');
  });

  it('sftp host and agent url with credentials are refused', () => {
    expect(check(action(`sftp: { host: a|body::h|, user: u, password: a|secret::PW|, host_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl", operation: list, path: / }`)).errors[0]!.message).toContain('chooses the host action "A" logs in to');
    expect(check(action(`agent: { url: a|body::u|, model: m, headers: { authorization: "Bearer a|secret::K|" }, input: hi }`)).errors[0]!.message).toContain('chooses where action "A" sends its credential');
  });
});

describe('connection strings, document filters, namespaces, topics', () => {
  it('refuses request markers in conn_string and a declared database url', () => {
    const r = check(action(`query: select 1\nconn_string: "postgres://u@db/app?host=a|body::h|&port=5433"`));
    expect(r.errors[0]!.message).toBe('a|body::h| cannot be written into a connection string: it would choose the database, its host and where the credentials go');
    const d = check(`databases:\n  main: { url: "postgres://db/a|headers::x-db|" }\n${action('query: select 1').trim()}\n`);
    expect(d.errors[0]!.message).toContain('cannot be written into a connection string');
  });

  it('refuses a whole filter, an $and element and a collection from the request; a marker under a field passes', () => {
    expect(check(action('document_operation: { collection: users, operation: find, filter: a|body::f| }')).errors[0]!.message).toContain('would be read as a filter');
    expect(check(action('document_operation: { collection: users, operation: find, filter: { $or: [ { a: 1 }, a|body::f| ] } }')).errors[0]!.message).toContain('would be read as a filter');
    expect(check(action('document_operation: { collection: a|body::c|, operation: find, filter: {} }')).errors[0]!.message).toContain('cannot choose the collection');
    expect(check(action('document_operation: { collection: users, operation: find, filter: { user: a|body::user|, pw: a|body::pw| } }\nconn_string: a|secret::DB|')).ok).toBe(true);
  });

  it('refuses a request-chosen namespace and a reserved one written in the config', () => {
    for (const k of ['state: { namespace: a|body::ns|, get: { key: k } }', 'state: { namespace: "t-a|body::ns|", get: { key: k } }', 'only_new: { id: .id, key: k, namespace: a|params::ns| }']) {
      expect(check(action(k)).errors[0]!.message).toContain('cannot choose the namespace');
    }
    for (const ns of ['ws-retain', 'agent-memory:support', '_ap/schedule']) {
      expect(check(action(`state: { namespace: "${ns}", get: { key: k } }`)).errors[0]!.message).toContain('is reserved for the service');
    }
    expect(check(action('state: { namespace: mine, get: { key: a|body::k| } }')).ok).toBe(true);
  });

  it('refuses a request marker in the first level of an MQTT topic (the whole topic included); later levels pass', () => {
    for (const t of ['a|body::topic|', '"a|body::x|/cmd"', '["ok/x", a|body::t|]']) {
      expect(check(action(`mqtt_publish: { topics: ${t} }`)).errors[0]!.message).toContain('is in the first level of the topic');
    }
    expect(check(action('mqtt_publish: { topics: "devices/a|body::id|/cmd" }')).ok).toBe(true);
    expect(check(action('mqtt_publish: { topics: "a|var::ROOT|/a|body::id|" }')).ok).toBe(true);
  });

  it('warns at a request marker as a whole WebSocket channel; after a prefix the config writes it is quiet', () => {
    for (const c of ['a|body::channel|', '["news", a|params::ch|]', 'a|header::x-ch|']) {
      const r = check(action(`ws_publish: { channels: ${c} }`));
      expect(r.ok).toBe(true);
      expect(r.warnings.map((e) => e.message)).toContainEqual(expect.stringContaining('chooses the whole channel'));
    }
    for (const c of ['"room-a|body::room|"', 'a|var::CHANNEL|']) expect(check(action(`ws_publish: { channels: ${c} }`)).warnings).toEqual([]);
  });
});

describe('code: environment variables read as code', () => {
  it('refuses a request marker in LD_PRELOAD, NODE_OPTIONS, BASH_ENV, PATH; another name passes', () => {
    for (const k of ['LD_PRELOAD', 'NODE_OPTIONS', 'BASH_ENV', 'PATH', 'PYTHONPATH']) {
      const r = check(action(`command: { run: "node app.js", env: { ${k}: a|body::x| } }`));
      expect(r.errors[0]!.message).toBe(`a|body::x| cannot set ${k}: it is read as code (or as where code is found) by the program, its runtime or the loader`);
    }
    expect(check(action('command: { run: "node app.js", env: { INPUT: a|body::x|, NODE_OPTIONS: a|var::O| } }')).ok).toBe(true);
  });
});

describe('code: shell: true scripts that run a marker as code', () => {
  it('refuses eval and sh -c of a marker inside a shell script; plain use passes', () => {
    for (const run of ['eval a|body::t|', 'echo hi; eval "x a|body::t|"', 'cd /tmp && sh -c "a|body::t|"', 'echo $(bash -c "a|body::t|")', 'x=1 | python3 -c "a|body::t|"']) {
      const r = check(action(`command: { run: ${JSON.stringify(run)}, shell: true }`));
      expect(r.errors.map((d) => d.message).join('\n'), run).toMatch(/is inside the script that \S+ runs/);
      expect(r.errors[0]!.hint).toContain('never through eval');
    }
    for (const run of ['a|body::prog| --help', 'echo x; env a|body::prog|']) {
      expect(check(action(`command: { run: ${JSON.stringify(run)}, shell: true }`)).errors[0]!.message, run).toContain('cannot choose the program to run');
    }
    for (const run of ['echo a|body::t| | tr a-z A-Z', 'grep -c "a|body::t|" /etc/hosts; echo "done: a|body::t|"', 'printf %s a|body::t|']) {
      expect(check(action(`command: { run: ${JSON.stringify(run)}, shell: true }`)).errors, run).toEqual([]);
    }
  });
});
