// A stand-in's `refused:` (docs/test-cases.md, Result): the action fails as a refusal with that
// status, as one its kind made does (a destination the outbound policy denied, every database pool
// busy): the interface answers the status, the error body says "refused", and it is never retried,
// whatever its retry says. A refusal made while the settings are filled in (a `..` URL segment)
// needs no stand-in: the case's request refuses again by itself, before any stand-in is asked. On
// both paths; a status the runtime never refuses with is a load error with file:line:col, and one a
// recordings file holds fails the case, saying so.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseProblems, runTests } from '../support/test-cli.ts';

afterEach(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'pw-stand-in-refusals-'));
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
        retry: { attempts: 3, delay: 1m, on: [any] }
        output: http
  save:
    method: POST
    actions:
      - name: Save
        database: main
        query: SELECT 1 AS one
        retry: { attempts: 2, delay: 1m }
        output: http
  item:
    method: POST
    actions:
      - name: Item
        url: https://rates.test/items/a|body::sku|
        output: http
`);

const refused = (status: number, action: string, error: string) => ({ status, body: { error: { status, message: `action "${action}" refused: ${error}`, action } } });
const DENIED = 'outbound call refused: rates.test is denied by SERVICE__OUTBOUND_DENY';
const BUSY = 'database "main": 8 database pools are open and each has a statement under way (SERVICE__DATABASE_MAX_POOLS); try again later';
const CASES = `secrets: { DB_URL: "postgres://nobody@db.invalid/x" }
cases:
  - name: a denied destination answers 403, not retried by on [any]
    interface: quote
    actions:
      Quote: [ { error: "${DENIED}", refused: 403 } ]
    expect: ${JSON.stringify(refused(403, 'Quote', DENIED))}
  - name: a database refusal answers its status, not retried as database failures are
    interface: save
    actions:
      Save: [ { error: ${JSON.stringify(BUSY)}, refused: 503 } ]
    expect: ${JSON.stringify(refused(503, 'Save', BUSY))}
  - name: a value refused in the settings refuses by itself, with no stand-in
    interface: item
    request: { method: POST, body: { sku: ".." } }
    expect: ${JSON.stringify(refused(400, 'Item', 'a|body::sku| is "..", which would move the URL path: refused'))}
`;

describe.each([{}, { 'no-fastpath': true }])('stand-in refusals %o', (path) => {
  it('answer the refusal\'s status and say so, never retried; a settings refusal needs no stand-in', async () => {
    const f = join(dir, `refusals-${Object.keys(path).length}.tests.yaml`);
    writeFileSync(f, CASES);
    const r = await caseProblems([config], { ...path, cases: f });
    expect(r.by).toEqual({
      'a denied destination answers 403, not retried by on [any]': [],
      'a database refusal answers its status, not retried as database failures are': [],
      'a value refused in the settings refuses by itself, with no stand-in': [],
    });
    expect(r.code).toBe(0);
  }, 60_000);

  it('without refused a database case answers 500 and is retried; a stand-in for a settings refusal goes unused', async () => {
    const f = join(dir, `plain-${Object.keys(path).length}.tests.yaml`);
    writeFileSync(f, `cases:
  - name: busy, no status
    interface: save
    actions:
      Save: [ { error: ${JSON.stringify(BUSY)} } ]
    expect: { status: 503 }
  - name: a stand-in the settings refusal never reaches
    interface: item
    request: { method: POST, body: { sku: ".." } }
    actions:
      Item: { error: "refused", refused: 400 }
    expect: { status: 400 }
`);
    const r = await caseProblems([config], { ...path, cases: f });
    expect(r.by['busy, no status']).toEqual(['action "Save" ran 2 times; its stand-in lists 1 results', expect.stringMatching(/^status: expected 503, got 500/)]);
    expect(r.by['a stand-in the settings refusal never reaches']).toEqual(['the stand-in for action "Item" was not used (the action did not run)']);
  }, 60_000);

  it('a recordings entry with a status the runtime never refuses with, or with a transport class too, fails the case, naming it', async () => {
    const n = Object.keys(path).length;
    const f = join(dir, `recorded-${n}.tests.yaml`);
    writeFileSync(f, 'cases:\n  - name: recorded\n    interface: quote\n    expect: { status: 500 }\n  - name: both\n    interface: quote\n    expect: { status: 500 }\n  - name: data\n    interface: quote\n    expect: { status: 200 }\n');
    writeFileSync(join(dir, `recorded-${n}.recordings.json`), JSON.stringify({
      format: 1, note: 'hand-edited', cases: {
        recorded: { http: [], actions: { Quote: [{ error: 'x', refused: 200 }] } },
        both: { http: [], actions: { Quote: [{ error: 'x', refused: 403, transport: 'timeout' }] } },
        data: { http: [], actions: { Quote: [{ data: 1, refused: 403 }] } },
      },
    }));
    const r = await caseProblems([config], { ...path, cases: f });
    expect(r.by.recorded).toContain('the stand-in for action "Quote" gives refused 200, which is none of the statuses the runtime refuses with (400, 403, 422, 503)');
    expect(r.by.both).toContain('the stand-in for action "Quote" gives both transport and refused: a failure is one or the other');
    expect(r.by.data).toContain('the stand-in for action "Quote" gives refused beside data: it goes with error');
    expect(r.code).toBe(1);
  }, 60_000);
});

describe('refused: in the cases file', () => {
  it('a status the runtime never refuses with, one without an error, one beside transport: refused at load with file:line:col', async () => {
    const f = join(dir, 'bad.tests.yaml');
    writeFileSync(f, `cases:
  - name: a
    interface: quote
    actions:
      Quote: { error: x, refused: 418 }
  - name: b
    interface: quote
    actions:
      Quote: [ { error: x }, { error: y, refused: "403" } ]
`);
    const r = await runTests([config], { cases: f });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${f}:5:35: error: cases.0.actions.Quote.refused must be one of 400, 403, 422, 503`);
    expect(r.err).toContain(`${f}:9:51: error: cases.1.actions.Quote.1.refused must be one of 400, 403, 422, 503; got "403"`);
    expect(r.err).not.toContain('must be a stand-in result');
    writeFileSync(f, `cases:
  - name: b
    interface: quote
    actions:
      Quote: [ { data: 1, refused: 403 }, { error: x, refused: 403, transport: timeout } ]
`);
    const r2 = await runTests([config], { cases: f });
    expect(r2.code).toBe(1);
    expect(r2.err).toContain(`${f}:5:27: error: refused is the status of a refusal: it goes with error, not with data`);
    expect(r2.err).toContain(`${f}:5:55: error: a failure is a transport failure or a refusal, not both: give transport or refused`);
  }, 60_000);
});
