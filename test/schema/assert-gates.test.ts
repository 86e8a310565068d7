// Issue 30 §3: an assert never decides whether an action failed (spec), so a side effect after a
// failed assert still happens. `check` warns at the side-effect action when nothing gates it, with
// the run_on_assertion to add; gated chains, reads and failure handlers of the asserting action pass.
import { describe, expect, it } from 'vitest';
import { check, withActions } from './helpers.ts';

const VERIFY = `      - name: Verify
        input: a|header::X-Signature|
        assert:
          tests:
            - is_valid_hmac: { secret: a|secret::HOOK|, data: a|raw_body| }
          error_message: bad signature
`;
const gateWarnings = (actions: string) => check(withActions(actions, 'expose_metrics: true\n')).filter((d) => d.message.includes('an assert never stops later actions'));

describe('side effects after an assert that may fail', () => {
  it('warns at an ungated write with the gate to add', () => {
    expect(gateWarnings(`${VERIFY}      - name: Save
        query: INSERT INTO hooks (body) VALUES ($1)
        params: [a|body|]
        database: db
        conn_string: postgres://127.0.0.1/test
`)).toEqual([{
      at: '11:9', severity: 'warning',
      message: 'action "Save" (a database write) runs even when the assert of "Verify" fails: an assert never stops later actions',
      hint: 'gate it with run_on_assertion: { tests: [{ value: "a|Verify|", is_valid_hmac: { secret: "a|secret::HOOK|", data: "a|raw_body|" } }] } (it is then skipped when they fail), and give the side effects after it run_when_succeeded: [Save]',
    }]);
  });

  it.each([
    ['a POST request', 'http: { url: "http://127.0.0.1:1/x", method: POST }'],
    ['a command', 'command: { run: echo hi }'],
    ['an email', 'email: { to: a@b.c, subject: s, text: t }'],
    ['an SFTP put', 'sftp: { host: h, user: u, password: p, accept_any_host_key: true, operation: put, path: /x, content: a }'],
    ['a state write', 'state: { set: { key: k, value: 1 } }'],
    ['a WebSocket publish', 'ws_publish: { channels: room }'],
    ['an MQTT publish', 'mqtt_publish: { topics: t/x }'],
    ['a metric', 'emit_metric: { name: hooks_total }'],
    ['a document insertOne', 'document_operation: { collection: c, operation: insertOne, insert: { a: 1 }, database: db }\n        conn_string: postgres://127.0.0.1/test'],
  ])('%s is a side effect', (what, kind) => {
    const d = gateWarnings(`${VERIFY}      - name: Effect\n        ${kind}\n`);
    expect(d.map((x) => x.message)).toEqual([`action "Effect" (${what}) runs even when the assert of "Verify" fails: an assert never stops later actions`]);
  });

  it.each([
    ['a GET', 'url: http://127.0.0.1:1/x'],
    ['a SELECT', 'query: SELECT * FROM t WHERE id = $1\n        params: [1]\n        database: db\n        conn_string: postgres://127.0.0.1/test'],
    ['a state read', 'state: { get: k }'],
    ['an SFTP list', 'sftp: { host: h, user: u, password: p, accept_any_host_key: true, operation: list, path: / }'],
    ['a document find', 'document_operation: { collection: c, operation: find, database: db }\n        conn_string: postgres://127.0.0.1/test'],
    ['an input', 'input: { ok: true }'],
  ])('%s is not', (_what, kind) => {
    expect(gateWarnings(`${VERIFY}      - name: Read\n        ${kind}\n`)).toEqual([]);
  });

  it('a run_on_assertion gate, and the success chain after it, pass', () => {
    expect(gateWarnings(`${VERIFY}      - name: Save
        run_on_assertion:
          tests:
            - value: a|Verify|
              is_valid_hmac: { secret: a|secret::HOOK|, data: a|raw_body| }
        command: { run: echo saved }
      - name: Notify
        run_when_succeeded: [Save]
        http: { url: "http://127.0.0.1:1/chat", method: POST }
      - name: Audit
        depends_on: [Notify]
        command: { run: echo audit }
`)).toEqual([]);
  });

  it('a chain that can still run without the gate warns (at_least, or a gate before the assert)', () => {
    const d = gateWarnings(`      - name: Early
        run_on_assertion: { tests: [{ value: a|body::ok|, is_equal_to: true }] }
        input: a|body|
${VERIFY}      - name: Gate
        run_on_assertion: { tests: [{ value: a|Verify|, is_not_null: true }] }
        input: ok
      - name: Either
        run_when_succeeded: { actions: [Gate, Verify], at_least: 1 }
        command: { run: echo either }
      - name: AfterEarly
        run_when_succeeded: [Early]
        command: { run: echo early }
`);
    expect(d.map((x) => x.message.split(' (')[0])).toEqual(['action "Either"', 'action "AfterEarly"']);
  });

  it('a failure handler of the asserting action passes (its assert ran only on success); a handler of another action warns', () => {
    expect(gateWarnings(`${VERIFY}      - name: Alert
        run_when_failed: [Verify]
        email: { to: ops@b.c, subject: s, text: t }
`)).toEqual([]);
    expect(gateWarnings(`      - name: Fetch
        url: http://127.0.0.1:1/x
${VERIFY.replace('Verify', 'Check')}      - name: Alert
        run_when_failed: [Fetch]
        email: { to: ops@b.c, subject: s, text: t }
`)).toHaveLength(1);
  });

  it('inside a lookup: an outer ungated assert reaches the nested side effects; a gated lookup does not', () => {
    const lookup = (gate: string) => gateWarnings(`${VERIFY}      - name: Each
${gate}        lookup: a|body::items|
        actions:
          - name: Post
            http: { url: "http://127.0.0.1:1/x", method: POST }
`);
    expect(lookup('').map((x) => x.at)).toEqual(['14:13']);
    expect(lookup('        run_on_assertion: { tests: [{ value: a|Verify|, is_not_null: true }] }\n')).toEqual([]);
  });

  it('the gate the hint shows, pasted in, compiles and silences the warning', () => {
    const save = (gate: string) => `${VERIFY}      - name: Save\n${gate}        command: { run: echo saved }\n`;
    const [w] = gateWarnings(save(''));
    const runOnAssertion = /run_on_assertion: (\{.*\}) \(it is/.exec(w!.hint!)![1]!;
    const text = withActions(save(`        run_on_assertion: ${runOnAssertion}\n`));
    expect(check(text)).toEqual([]);
  });

  it('a side effect before the assert passes', () => {
    expect(gateWarnings(`      - name: Post
        http: { url: "http://127.0.0.1:1/x", method: POST }
${VERIFY}`)).toEqual([]);
  });
});
