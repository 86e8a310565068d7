// A stand-in's `transport:` (docs/test-cases.md, Result): the action fails as a transport failure
// of that class, as a real one does: the interface answers 504 for a timeout and 502 otherwise, and
// `retry.on` retries it by class. On both paths; a class the runtime does not have is a load error
// with file:line:col, and one a recordings file holds fails the case, saying so.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseProblems, runTests } from '../support/test-cli.ts';

afterEach(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'pw-stand-in-failures-'));
const config = join(dir, 'rates.yaml');
writeFileSync(config, `
databases:
  main: { url: a|secret::DB_URL| }
interfaces:
  quote:
    method: POST
    actions:
      - name: Quote
        url: https://rates.test/quote
        retry: { attempts: 3, delay: 1m, on: [timeout] }
        output: http
  any_quote:
    method: POST
    actions:
      - name: Quote
        url: https://rates.test/quote
        retry: { attempts: 2, delay: 1m }
        output: http
  save:
    method: POST
    actions:
      - name: Save
        database: main
        query: SELECT 1 AS one
        retry: { attempts: 2, delay: 1m }
        output: http
`);

const failed = (status: number, action: string) => ({ status, body: { error: { status, message: `action "${action}" failed`, action } } });
const CASES = `secrets: { DB_URL: "postgres://nobody@db.invalid/x" }
cases:
  - name: timeouts retried by on [timeout], then an answer
    interface: quote
    actions:
      Quote: [ { error: "timed out", transport: timeout }, { error: "timed out", transport: timeout }, { data: { rate: 1.25 }, status: 200 } ]
    expect: { status: 200, body: { rate: 1.25 } }
  - name: a timeout on every attempt answers 504
    interface: quote
    actions:
      Quote: [ { error: "timed out", transport: timeout }, { error: "timed out", transport: timeout }, { error: "timed out", transport: timeout } ]
    expect: ${JSON.stringify(failed(504, 'Quote'))}
  - name: a connect failure is not retried by on [timeout] and answers 502
    interface: quote
    actions:
      Quote: [ { error: "connect ECONNREFUSED", transport: connect } ]
    expect: ${JSON.stringify(failed(502, 'Quote'))}
  - name: the default set retries any transport failure
    interface: any_quote
    actions:
      Quote: [ { error: "socket hang up", transport: other }, { error: "connect ECONNREFUSED", transport: connect } ]
    expect: ${JSON.stringify(failed(502, 'Quote'))}
  - name: a plain error still answers 500
    interface: quote
    actions:
      Quote: [ { error: "no" } ]
    expect: ${JSON.stringify(failed(500, 'Quote'))}
  - name: a database that timed out, retried as every database failure is
    interface: save
    actions:
      Save: [ { error: "statement timeout", transport: timeout }, { error: "statement timeout", transport: timeout } ]
    expect: ${JSON.stringify(failed(504, 'Save'))}
`;

describe.each([{}, { 'no-fastpath': true }])('stand-in transport failures %o', (path) => {
  it('answer 504 for a timeout and 502 otherwise, retried per retry.on; every listed result is used', async () => {
    const f = join(dir, 'rates.tests.yaml');
    writeFileSync(f, CASES);
    const r = await caseProblems([config], { ...path, cases: f });
    expect(r.by).toEqual({
      'timeouts retried by on [timeout], then an answer': [],
      'a timeout on every attempt answers 504': [],
      'a connect failure is not retried by on [timeout] and answers 502': [],
      'the default set retries any transport failure': [],
      'a plain error still answers 500': [],
      'a database that timed out, retried as every database failure is': [],
    });
    expect(r.code).toBe(0);
  }, 60_000);

  it('without its class the same case answers 500: the class is what decides', async () => {
    const f = join(dir, `plain-${Object.keys(path).length}.tests.yaml`);
    writeFileSync(f, `cases:
  - name: timed out, no class
    interface: quote
    actions:
      Quote: [ { error: "timed out" } ]
    expect: { status: 504 }
`);
    const r = await caseProblems([config], { ...path, cases: f });
    expect(r.by['timed out, no class']).toEqual([expect.stringMatching(/^status: expected 504, got 500/)]);
  }, 60_000);

  it('a recordings entry with a class the runtime does not have fails the case, naming it', async () => {
    const f = join(dir, `recorded-${Object.keys(path).length}.tests.yaml`);
    writeFileSync(f, 'cases:\n  - name: recorded\n    interface: quote\n    expect: { status: 502 }\n');
    writeFileSync(join(dir, `recorded-${Object.keys(path).length}.recordings.json`), JSON.stringify({
      format: 1, note: 'hand-edited', cases: { recorded: { http: [], actions: { Quote: [{ error: 'x', transport: 'slow' }] } } },
    }));
    const r = await caseProblems([config], { ...path, cases: f });
    expect(r.by.recorded).toContain('the stand-in for action "Quote" gives transport "slow", which is none of timeout, connect, other');
    expect(r.code).toBe(1);
    // A class beside data (the cases file refuses it at load): said, not ignored.
    writeFileSync(join(dir, `recorded-${Object.keys(path).length}.recordings.json`), JSON.stringify({
      format: 1, note: 'hand-edited', cases: { recorded: { http: [], actions: { Quote: [{ data: { rate: 1 }, status: 200, transport: 'timeout' }] } } },
    }));
    const r2 = await caseProblems([config], { ...path, cases: f });
    expect(r2.by.recorded).toContain('the stand-in for action "Quote" gives transport beside data: it goes with error');
    expect(r2.code).toBe(1);
  }, 60_000);
});

describe('transport: in the cases file', () => {
  it('an unknown class and a class without an error are refused at load with file:line:col', async () => {
    const f = join(dir, 'bad.tests.yaml');
    writeFileSync(f, `cases:
  - name: a
    interface: quote
    actions:
      Quote: { error: x, transport: timout }
  - name: b
    interface: quote
    actions:
      Quote: [ { error: x }, { error: y, transport: Timeout } ]
`);
    const r = await runTests([config], { cases: f });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${f}:5:37: error: cases.0.actions.Quote.transport must be one of timeout, connect, other`);
    expect(r.err).toContain(`${f}:9:53: error: cases.1.actions.Quote.1.transport must be one of timeout, connect, other; got "Timeout"`);
    // Said once, in its place: not also as "must be a stand-in result".
    expect(r.err).not.toContain('must be a stand-in result');
    writeFileSync(f, `cases:
  - name: b
    interface: quote
    actions:
      Quote: [ { data: 1 }, { data: 2, transport: connect } ]
`);
    const r2 = await runTests([config], { cases: f });
    expect(r2.code).toBe(1);
    expect(r2.err).toContain(`${f}:5:40: error: transport is the class of a failure: it goes with error, not with data`);
  }, 60_000);
});
