// `pipewright test` hermetic cases (issue 32 §1): a flow that calls an HTTP upstream, writes to
// Postgres and publishes to MQTT passes with no network at all (a fresh network namespace), on both
// paths; each way a case can fail says what failed; the loader refuses what it does not know with
// file:line:col; --require-tests fails untested interfaces.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { caseProblems, runTests } from '../support/test-cli.ts';

const config = 'test/testing/fixtures/shop.yaml';
const failing = 'test/testing/fixtures/shop-failing.tests.yaml';

afterEach(() => vi.restoreAllMocks());

// The failing cases on the fast path, run once: three tests read their problems.
let failingFast: ReturnType<typeof caseProblems> | undefined;
const failingOnFastPath = () => (failingFast ??= caseProblems([config], { cases: failing }));


describe('hermetic cases', () => {
  const unshare = spawnSync('unshare', ['-rn', 'true']).status === 0;
  it.skipIf(!unshare)('pass in a network namespace with nothing up (no upstream, no database, no broker, no DNS), on both paths', () => {
    for (const path of [[], ['--no-fastpath']]) {
      // The CLI as installed runs it (dist/ when it is current, else the sources: bin/pipewright.mjs).
      const r = spawnSync('unshare', ['-rn', process.execPath, resolve('bin/pipewright.mjs'), 'test', config, ...path], { encoding: 'utf8', timeout: 120_000 });
      expect(r.stderr).toContain('✓ shop.receive_order › an order is stored and announced');
      expect(r.stderr).toContain("✓ shop.slow › an hour's delay and a retry with backoff finish at once");
      expect(r.stdout).toBe('7 passed, 0 failed\n');
      expect(r.status).toBe(0);
    }
    // Not vacuous: inside the namespace nothing is reachable at all.
    const probe = spawnSync('unshare', ['-rn', process.execPath, '-e', "require('net').connect(5432,'127.0.0.1').on('error',e=>{console.log(e.code);process.exit(0)})"], { encoding: 'utf8' });
    expect(probe.stdout.trim()).toMatch(/ENETUNREACH|ECONNREFUSED/);
  }, 240_000);

  it('gives the same results on the fast path and the interpreter', async () => {
    const fast = await failingOnFastPath();
    const interpreted = await caseProblems([config], { cases: failing, 'no-fastpath': true });
    expect(interpreted.by).toEqual(fast.by);
    const ok = await runTests([config], { 'no-fastpath': true, reporter: 'tap' });
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("ok 2 - shop.slow › an hour's delay and a retry with backoff finish at once");
    // JUnit: a testcase per case, still valid against the XSD.
    const junit = await runTests([config], { cases: failing, reporter: 'junit' });
    const v = await validateXML({ xml: [{ fileName: 'r.xml', contents: junit.out }], schema: [{ fileName: 'junit.xsd', contents: readFileSync('test/support/schemas/junit.xsd', 'utf8') }] });
    expect(v.errors).toEqual([]);
    expect(junit.out).toContain('<testcase name="receive_order › no recording" classname="shop"');
  }, 120_000);

  it('fails naming the request without a recording, the recording not used, the action without a stand-in, the callback not scripted', async () => {
    const { code, by } = await failingOnFastPath();
    expect(code).toBe(1);
    expect(by['no recording']).toEqual([
      'request without a recording: GET https://crm.test/customers/42',
      'the stand-in for action "Save" was not used (the action did not run)',
      'status 502 (set expect.status to expect a failure): {"error":{"status":502,"message":"action \\"Customer\\" failed","action":"Customer"}}',
    ]);
    expect(by['unused recording']).toEqual(['recording not used: GET https://crm.test/customers/99']);
    expect(by['no stand-in for the database']![0]).toBe('action "Save" (database) has no stand-in: give it one under actions: in the case (outbound calls never leave a test)');
    expect(by['no stand-in for the database']![1]).toMatch(/^status 500 \(set expect.status to expect a failure\)/);
    expect(by['no scripted callback']![0]).toContain('the run waits for a callback in action "Approval"; the case scripts none');
  }, 60_000);

  it('says what each failed expectation expected and got', async () => {
    const { by } = await failingOnFastPath();
    expect(by['every expectation kind fails']).toEqual([
      'status: expected 201, got 200: {"items":[{"price":5},{"price":12}]}',
      'header x-kind: expected "other", got "notice"',
      'body: at /items: expected 1 items, got 2: [{"price":5},{"price":12}]',
      'body_includes: at /items/1/price: expected 13, got 12',
      "body_schema: / must have required property 'total'",
      'jq .items | length == 3: expected true, got false',
      'jsonpath $.items[?@.price > 100]: selects nothing in {"items":[{"price":5},{"price":12}]}',
      'published: no mqtt message on orders/new; mqtt captured: none',
      'published: no ws message on orders matching {"id":8}; ws captured: ws orders {"id":7}',
      'published: no metric orders_total = 2; metric captured: metric orders_total 1 {"region":"eu"}',
      'published: no email matching {"to":"sales@example.com"}; email captured: email {"from":"shop@example.com","to":"ops@example.com","subject":"Order 7","text":"An order came in."}',
    ]);
  }, 60_000);

  it('--require-tests fails each interface nothing tests and lists them', async () => {
    const r = await caseProblems([config], { 'require-tests': true });
    expect(r.code).toBe(1);
    expect(r.by.untested).toEqual(['untested (--require-tests): give it a case in test/testing/fixtures/shop.tests.yaml, or accepts.example, produces or tests']);
    expect(r.err).toContain('untested: shop.untested');
    expect(Object.values(r.by).filter((p) => p.length)).toHaveLength(1);
  }, 60_000);
});

describe('the cases file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-cases-'));
  const copy = join(dir, 'shop.yaml');
  copyFileSync(config, copy);

  it('is picked up beside the config; unknown fields, interfaces and actions are errors at load, with file:line:col', async () => {
    // Two misspellings (an interface, an action) both versions share; each adds its own.
    const misspelt = `cases:
  - name: a
    interface: recieve_order
  - name: b
    interface: receive_order
    actions:
      Sav: { data: 1 }
      Customer: { data: 1 }
`;
    writeFileSync(join(dir, 'shop.tests.yaml'), `${misspelt}    expect: { stauts: 200 }
`);
    const r = await runTests([copy], {});
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${join(dir, 'shop.tests.yaml')}:9:15: error: unknown field "stauts" in cases.1.expect`);
    writeFileSync(join(dir, 'shop.tests.yaml'), `${misspelt}      Announce: { data: 1, error: x }
    callbacks: [{ action: Save }]
`);
    const r2 = await runTests([copy], {});
    expect(r2.code).toBe(1);
    const f = join(dir, 'shop.tests.yaml');
    expect(r2.err).toContain(`${f}:3:16: error: no interface "recieve_order" in shop: did you mean "receive_order"?`);
    expect(r2.err).toContain(`${f}:7:7: error: interface "receive_order" has no action "Sav": did you mean "Save"?`);
    // An http action may be stood in by name (pipewright test --from-run writes them so).
    expect(r2.err).not.toContain(`${f}:8:7:`);
    expect(r2.err).toContain(`${f}:9:17: error: a stand-in result has either data or error (got both)`);
    expect(r2.err).toContain(`${f}:10:27: error: action "Save" is a database, not a wait_for_callback`);
    expect(r2.err).toContain('> 3 |     interface: recieve_order'); // a code frame, as check prints
  }, 60_000);

  it('a lookup takes a stand-in whole (its items do not run), on both paths; other in-process kinds take none', async () => {
    const f = join(dir, 'lookup.tests.yaml');
    writeFileSync(f, `vars: { API_BASE: "https://crm.test" }
secrets: { SHOP_DB_URL: "postgres://nobody@db.invalid/shop" }
cases:
  - name: whole
    interface: poll
    request: { body: { ids: [1, 2] } }
    http:
      - request: { url: "https://crm.test/status" }
        response: { body: { ready: true } }
    actions:
      Lines: { data: [ [ { id: 1 } ], [ { id: 2 } ] ] }
      Line: { data: [] }
    expect: { jq: '.Lines | map(.[0].id) == [1, 2]' }
`);
    for (const path of [{}, { 'no-fastpath': true }]) {
      const { by } = await caseProblems([copy], { ...path, cases: f });
      // The nested database action never ran: the lookup answered with its stand-in.
      expect(by.whole).toEqual(['the stand-in for action "Line" was not used (the action did not run)']);
    }
    writeFileSync(f, `cases:
  - name: input
    interface: receive_order
    actions:
      Result: { data: 1 }
`);
    const r = await runTests([copy], { cases: f });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${f}:5:7: error: action "Result" is an input, which runs in the test as it does in service: it takes no stand-in`);
  }, 60_000);
});
