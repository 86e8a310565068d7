// Issue 29 (5): a credential the runtime builds from a secret (a Basic header from `user` + `pass:
// a|secret::PW|`, a digest response) and an upstream echoes never reaches the client's error data
// (show_error_detail), the stored run (GET /_ap/runs/<id>) or the log, in either path. Neither the
// secret, nor base64(user:pass), nor the header value appears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { makeRedactor } from '../../runtime/values/redact.ts';
import { deriveFrom } from '../../runtime/values/derived-secrets.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { capturedLog, secretEnv, serveWith, until } from '../ops/helpers.ts';

const LONG = 'long-s3cr3t-passw0rd';
const SHORT = 'pw9x7'; // shorter than 8: no encoded forms, only the registered credential hides it

const config = (auth: string) => `
interfaces:
  echo:
    actions:
      - name: Up
        url: a|var::API|/echo
        http: { ${auth} }
    show_error_detail: true
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  up = await countingUpstream({
    // Echoes the request's headers in a failure, so they land in the error's data and the run.
    '/echo': (req, res) => {
      const auth = req.headers.authorization ?? '';
      if (auth.startsWith('Digest') || auth.startsWith('Basic')) return json(res, 500, { you_sent: req.headers });
      res.writeHead(401, { 'www-authenticate': 'Digest realm="r", nonce="n0nce", qop="auth", algorithm=SHA-256' });
      res.end();
    },
  });
});
afterAll(async () => { for (const c of closers) await c(); await up.close(); await closeHttpPools(); });

const cases: Array<[string, string, string]> = [
  ['basic, long secret', 'user: alice, pass: a|secret::PW|', LONG],
  ['basic, short secret', 'user: alice, pass: a|secret::PW|', SHORT],
  ['digest', 'digest_auth_user: alice, digest_auth_pass: a|secret::PW|', LONG],
];

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it.each(cases)('%s: error data, run record and log hide the derived credential', async (_n, auth, secret) => {
    const store = new MemoryStore();
    const env = secretEnv({ API: up.url }, { PW: secret });
    const { log, lines } = capturedLog(env);
    const { app, url } = await serveWith([await planOf('derived.yaml', mode, config(auth))], env, { store, log });
    closers.push(() => app.close());
    const res = await fetch(`${url}/echo`);
    const text = await res.text();
    expect(res.status).toBe(502);
    const sent = up.hits.at(-1)!.headers.authorization!;
    const forbidden = [secret, sent, sent.replace(/^\w+ /, ''), Buffer.from(`alice:${secret}`).toString('base64')];
    if (auth.startsWith('digest')) forbidden.push(/response="([0-9a-f]+)"/.exec(sent)![1]!);
    const echoed = (JSON.parse(text) as { error: { data: { you_sent: { authorization: string } } } }).error.data.you_sent.authorization;
    expect(echoed).toContain('[redacted]');
    const runId = res.headers.get('x-run-id')!;
    const run = await until(async () => { const r = await fetch(`${url}/_ap/runs/${runId}`); return r.status === 200 ? r.text() : undefined; });
    const logged = JSON.stringify(lines);
    expect(logged).toContain('action \\"Up\\" failed');
    for (const f of forbidden) {
      expect(text).not.toContain(f);
      expect(run).not.toContain(f);
      expect(logged).not.toContain(f);
    }
  });
});

it('a server whose first run builds the credential (no redactor made before) hides it too', async () => {
  const secret = 'pw8k2'; // short: only the registered credential can hide it
  const env = secretEnv({ API: up.url }, { PW: secret });
  const { app, url } = await serveWith([await planOf('derived.yaml', 'interpreted', config('user: bob, pass: a|secret::PW|'))], env, {});
  closers.push(() => app.close());
  const text = await (await fetch(`${url}/echo`)).text();
  expect(text).toContain('[redacted]');
  expect(text).not.toContain(Buffer.from(`bob:${secret}`).toString('base64'));
});

describe('the redactor', () => {
  it('hides a secret inside base64 (any alignment, url-safe too) and hex text', () => {
    const r = makeRedactor(['0123456789-secret-abc']);
    for (const prefix of ['', 'a', 'ab', 'abc:']) {
      const s = `${prefix}0123456789-secret-abc!`;
      for (const enc of ['base64', 'base64url', 'hex'] as const) {
        const out = r({ v: Buffer.from(s).toString(enc) }).v;
        expect(out).toContain('[redacted]');
        expect(Buffer.from(out.replace('[redacted]', ''), enc).toString()).not.toContain('secret');
      }
    }
    expect(r(Buffer.from('0123456789-secret-abc').toString('hex').toUpperCase())).toBe('[redacted]');
  });

  it('hides a credential registered as built from a secret, not one built from other text', () => {
    const r = makeRedactor(['k3y']);
    deriveFrom(['k3y'], 'signature-made-with-the-key');
    deriveFrom(['public'], 'signature-made-without-it');
    expect(r('a signature-made-with-the-key b')).toBe('a [redacted] b');
    expect(r('signature-made-without-it')).toBe('signature-made-without-it');
    expect(r.cleanText('"x":"signature-made-with-the-key"')).toBe(false);
  });

  it('cleanText finds every form of a secret whatever its length against the text', () => {
    const secret = '0123456789-"quoted"-secret';
    const r = makeRedactor([secret]);
    // The text is exactly one form (the JSON-escaped one is the longest), or holds a short one.
    expect(r.cleanText(JSON.stringify(secret).slice(1, -1))).toBe(false);
    expect(r.cleanText(secret)).toBe(false);
    expect(r.cleanText(`GET /x?k=${encodeURIComponent(secret)}`)).toBe(false);
    expect(r.cleanText(Buffer.from(`u:${secret}`).toString('hex'))).toBe(false);
    // Texts shorter than every form, and a longer one holding none, are clean.
    expect(r.cleanText('GET')).toBe(true);
    expect(r.cleanText('')).toBe(true);
    expect(r.cleanText('a request path that holds no secret at all, long enough')).toBe(true);
  });
});
