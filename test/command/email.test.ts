// The email action in both paths against an in-process SMTP server (smtp-server) that receives each
// message and parses it (mailparser): addresses, bodies and attachments arrive as sent; line breaks
// in request values add no header and no recipient; a refused recipient, a refused login and an
// unreachable server fail with the action's name, are retried (non-HTTP rule), and leave no connection.
import { createServer as netServer } from 'node:net';
import { simpleParser, type ParsedMail, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODES, runner } from '../database/helpers.ts';

interface Received { envelope: { from: string; to: string[] }; mail: ParsedMail; raw: string }
const received: Received[] = [];
let rcptAttempts = 0;
let server: SMTPServer;
let port = 0;
const PASSWORD = 'right-horse-battery';

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === PASSWORD) return cb(null, { user: 'mailer' });
      cb(new Error('Authentication failed'));
    },
    onRcptTo(addr: SMTPServerAddress, _session, cb) {
      rcptAttempts++;
      if (addr.address.startsWith('refuse')) return cb(Object.assign(new Error('no such mailbox here'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const envelope = { from: (session.envelope.mailFrom as SMTPServerAddress).address, to: session.envelope.rcptTo.map((r) => r.address) };
        received.push({ envelope, mail: await simpleParser(raw), raw: raw.toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  port = (server.server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((res) => server.close(() => res())));
afterEach(async () => {
  received.length = 0;
  rcptAttempts = 0;
  // Every transport is closed after its message: the server sees no connection left.
  for (let i = 0; i < 40 && (server as unknown as { connections: Set<unknown> }).connections.size; i++) await new Promise((r) => setTimeout(r, 25));
  expect((server as unknown as { connections: Set<unknown> }).connections.size).toBe(0);
});

const url = (auth = '') => `smtp://${auth}127.0.0.1:${port}?ignoreTLS=true`;
const addrs = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address));
const cfg = (email: string, extra = '') => `
interfaces:
  m:
    show_error_detail: true
    actions:
      - name: Mail
        email:
${email.split('\n').map((l) => `          ${l}`).join('\n')}
${extra}`;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10, 0x80]);

describe.each(MODES)('email (%s)', (mode) => {
  const run = async (yaml: string, body?: unknown, secrets: Record<string, string> = { SMTP: url() }) => (await runner(`mail-${mode}.yaml`, yaml, mode, secrets))('m', { body });

  it('sends from, to (a list), cc, bcc, subject, text, HTML body and attachments; the output has the message id and recipients', async () => {
    const r = await run(cfg(`smtp: a|secret::SMTP|
from: '"Orders" <orders@shop.test>'
to: [a|body::customer|, ops@shop.test]
cc: audit@shop.test
bcc: a|body::hidden|
reply_to: help@shop.test
subject: Your order a|body::id|
text: Order a|body::id| is on its way.
body: <p>Order <b>a|body::id|</b> is on its way.</p>
attachments:
  - { filename: logo.png, content: a|body::png|, content_type: image/png }
  - { filename: note.txt, content: "plain text ✓", encoding: utf8, content_type: text/plain }
  - { filename: blob.bin, content: AAEC }`), { customer: 'Ada <ada@example.test>', hidden: 'archive@shop.test', id: 'A-17', png: PNG.toString('base64') });
    expect(r.response.status).toBe(200);
    const out = (r.response.body as any).Mail;
    expect(received).toHaveLength(1);
    const { mail, envelope } = received[0]!;
    expect(out).toMatchObject({ message_id: mail.messageId, accepted: ['ada@example.test', 'ops@shop.test', 'audit@shop.test', 'archive@shop.test'], rejected: [] });
    expect(out.response).toMatch(/^250 /);
    expect(envelope).toEqual({ from: 'orders@shop.test', to: ['ada@example.test', 'ops@shop.test', 'audit@shop.test', 'archive@shop.test'] });
    expect(mail.from?.value).toEqual([{ name: 'Orders', address: 'orders@shop.test' }]);
    expect(addrs(mail.to)).toEqual(['ada@example.test', 'ops@shop.test']);
    expect(addrs(mail.cc)).toEqual(['audit@shop.test']);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(addrs(mail.replyTo)).toEqual(['help@shop.test']);
    expect(mail.subject).toBe('Your order A-17');
    expect(mail.text).toBe('Order A-17 is on its way.');
    expect(mail.html).toBe('<p>Order <b>A-17</b> is on its way.</p>');
    expect(mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString('hex')])).toEqual([
      ['logo.png', 'image/png', PNG.toString('hex')],
      ['note.txt', 'text/plain', Buffer.from('plain text ✓').toString('hex')],
      ['blob.bin', 'application/octet-stream', '000102'],
    ]);
  });

  it('a line break in a subject from the request adds no header and no recipient', async () => {
    const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\nsubject: a|body::s|\ntext: hi`), { s: 'Hello\r\nBcc: evil@attacker.test\r\nX-Injected: 1\n\nbody?' });
    expect(r.response.status).toBe(200);
    const { mail, envelope, raw } = received[0]!;
    expect(envelope.to).toEqual(['b@shop.test']);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(raw).not.toMatch(/^X-Injected/im);
    expect(mail.subject).toBe('Hello Bcc: evil@attacker.test X-Injected: 1 body?');
  });

  it.each([
    ['a line break', 'b@shop.test\r\nBcc: evil@attacker.test', /^email\.to contains a line break or NUL byte, which could add headers: refused$/],
    ['a second address', 'b@shop.test, evil@attacker.test', /^email\.to must be exactly one address \(write several as a list\)/],
    ['a group', 'friends: evil@attacker.test, other@attacker.test;', /^email\.to must be exactly one address/],
    ['no address at all', 'not an address', /^email\.to must be exactly one address \(write several as a list\), got "not an address"$/],
  ])('an address from the request holding %s is refused with 400 (the client\'s to fix), nothing is sent', async (_what, to, detail) => {
    const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: a|body::to|\ntext: hi`), { to });
    expect(r.response.status).toBe(400);
    expect((r.response.body as any).error).toMatchObject({ message: expect.stringMatching(/^action "Mail" refused: email\.to /), action: 'Mail' });
    expect((r.response.body as any).error.detail).toMatch(detail);
    expect(received).toHaveLength(0);
    expect(rcptAttempts).toBe(0);
  });

  it('every recipient refused: a clear error naming the action, retried three times', async () => {
    const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: refuse-me@shop.test\ntext: hi`, '        retry: { attempts: 3, delay: 0, jitter: none }'));
    expect(r.response.status).toBe(500);
    const error = (r.response.body as any).error;
    expect(error).toMatchObject({ message: 'action "Mail" failed', action: 'Mail' });
    expect(error.detail).toMatch(/^email: not sent: Can't send mail - all recipients were rejected: 550 no such mailbox here/);
    expect(r.state.steps.Mail).toMatchObject({ outcome: 'failed', attempts: 3, data: { rejected: ['refuse-me@shop.test'] } });
    expect(rcptAttempts).toBe(3);
    expect(received).toHaveLength(0);
  });

  it('some recipients refused: the message goes to the others and the output lists who refused', async () => {
    const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: [ok@shop.test, refuse-me@shop.test]\ntext: hi`));
    expect(r.response.status).toBe(200);
    expect((r.response.body as any).Mail).toMatchObject({ accepted: ['ok@shop.test'], rejected: ['refuse-me@shop.test'] });
    expect(received[0]!.envelope.to).toEqual(['ok@shop.test']);
  });

  it('a login: the right password sends; a wrong one fails clearly, retried, the password redacted', async () => {
    const ok = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`), undefined, { SMTP: url(`mailer:${PASSWORD}@`) });
    expect(ok.response.status).toBe(200);
    const bad = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`, '        retry: { attempts: 2, delay: 0, jitter: none }'), undefined, { SMTP: url('mailer:wrong-password-here@') });
    expect(bad.response.status).toBe(500);
    expect((bad.response.body as any).error.detail).toMatch(/^email: not sent: Invalid login: 535 Authentication failed/);
    expect(JSON.stringify(bad.response.body)).not.toContain('wrong-password-here');
    expect(bad.state.steps.Mail!.attempts).toBe(2);
    expect(received).toHaveLength(1);
  });

  it('an unreachable server fails as a transport failure (502), retried', async () => {
    const closed = await new Promise<number>((res) => { const s = netServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => res(p)); }); });
    const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`, '        retry: { attempts: 2, delay: 0, jitter: none }'), undefined, { SMTP: `smtp://127.0.0.1:${closed}` });
    expect(r.response.status).toBe(502);
    expect((r.response.body as any).error.detail).toMatch(/^email: not sent: .*ECONNREFUSED/);
    expect(r.state.steps.Mail!.attempts).toBe(2);
  });

  it('the outbound policy applies: a denied SMTP server answers 403, is never connected to, and is not retried', async () => {
    let connects = 0;
    const count = () => { connects++; };
    server.server.on('connection', count);
    const mail = cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`, '        retry: { attempts: 3, delay: 0, jitter: none }');
    try {
      process.env.SERVICE__MANAGED_MODE = '1';
      const literal = await run(mail);
      expect(literal.response.status).toBe(403);
      expect((literal.response.body as any).error.detail).toBe('outbound call refused: 127.0.0.1 resolves to a private, loopback or link-local address, denied in managed mode');
      expect(literal.state.steps.Mail!.attempts).toBe(1);
      delete process.env.SERVICE__MANAGED_MODE;
      process.env.SERVICE__OUTBOUND_DENY = 'localhost';
      const named = await run(mail, undefined, { SMTP: `smtp://localhost:${port}?ignoreTLS=true` });
      expect(named.response.status).toBe(403);
      expect((named.response.body as any).error.detail).toBe('outbound call refused: localhost is denied by SERVICE__OUTBOUND_DENY');
      expect(named.state.steps.Mail!.attempts).toBe(1);
    } finally {
      delete process.env.SERVICE__MANAGED_MODE;
      delete process.env.SERVICE__OUTBOUND_DENY;
      server.server.off('connection', count);
    }
    expect(connects).toBe(0);
    expect(rcptAttempts).toBe(0);
    // Allowed again, the same config sends through the policed socket.
    expect((await run(mail)).response.status).toBe(200);
  });

  it("the action's timeout closes the connection to a server that never answers (504)", async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent = netServer((s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
    await new Promise<void>((res) => silent.listen(0, '127.0.0.1', () => res()));
    try {
      const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`, '        timeout: 300'), undefined, { SMTP: `smtp://127.0.0.1:${(silent.address() as { port: number }).port}` });
      expect(r.response.status).toBe(504);
      expect((r.response.body as any).error.detail).toBe('email: stopped: the action timed out or the run was cancelled');
      for (let i = 0; i < 40 && sockets.size; i++) await new Promise((res) => setTimeout(res, 25));
      expect(sockets.size).toBe(0);
    } finally { await new Promise((res) => silent.close(res)); }
  });

  it('an attachment filename with a line break from the request is refused with 400', async () => {
    const r = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\nattachments: [{ filename: a|body::name|, content: aGk= }]`), { name: 'a.txt\r\nBcc: evil@attacker.test' });
    expect(r.response.status).toBe(400);
    expect((r.response.body as any).error.detail).toBe('email.attachments[0].filename contains a line break or NUL byte: refused');
    expect(rcptAttempts).toBe(0);
  });

  it('SERVICE__SMTP_URL and SERVICE__SMTP_FROM are the service-wide defaults; no server at all fails clearly', async () => {
    const unset = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`), undefined, {});
    expect((unset.response.body as any).error.detail).toBe('email: email.smtp is empty (is its secret set?)');
    const none = await run(cfg(`to: b@shop.test\ntext: hi`), undefined, {});
    expect((none.response.body as any).error.detail).toBe("email: no SMTP server: set SERVICE__SMTP_URL (smtp://user:pass@host:587) or the action's email.smtp");
    process.env.SERVICE__SMTP_URL = url();
    process.env.SERVICE__SMTP_FROM = 'Service <service@shop.test>';
    try {
      const r = await run(cfg(`to: b@shop.test\ntext: hi`), undefined, {});
      expect(r.response.status).toBe(200);
      expect(received[0]!.mail.from?.value).toEqual([{ name: 'Service', address: 'service@shop.test' }]);
    } finally { delete process.env.SERVICE__SMTP_URL; delete process.env.SERVICE__SMTP_FROM; }
  });

  it('an unknown SMTP URL option and a bad attachment are refused before anything is sent', async () => {
    const opt = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\ntext: hi`), undefined, { SMTP: `${url()}&debug=true` });
    expect((opt.response.body as any).error.detail).toMatch(/^email: the SMTP URL option "debug" is not supported/);
    const att = await run(cfg(`smtp: a|secret::SMTP|\nfrom: a@shop.test\nto: b@shop.test\nattachments: [{ filename: a.bin, content: "not base64!" }]`));
    expect((att.response.body as any).error.detail).toBe('email.attachments[0].content is not base64 (set encoding: utf8 for text)');
    expect(rcptAttempts).toBe(0);
  });
});
