// The email action through the standalone bundle (server.mjs run from a folder with no node_modules):
// it sends a message an in-process smtp-server receives and parses, and a failure answers
// byte-identically to the fast path and the interpreter.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { serveBundle } from '../support/bundle.ts';

const config = `
interfaces:
  mail:
    method: POST
    show_error_detail: true
    actions:
      - name: Mail
        email:
          smtp: a|secret::SMTP|
          from: '"Shop" <orders@shop.test>'
          to: a|body::to|
          subject: Order a|body::id|
          text: Order a|body::id| is on its way.
          attachments: [{ filename: note.txt, content: "ok ✓", encoding: utf8, content_type: text/plain }]
`;

const received: Array<{ to: string[]; mail: ParsedMail }> = [];
let server: SMTPServer;
let smtp = '';
const stops: Array<() => unknown> = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onRcptTo(addr: SMTPServerAddress, _s, cb) { cb(addr.address.startsWith('refuse') ? Object.assign(new Error('no such mailbox here'), { responseCode: 550 }) : undefined); },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => { received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail: await simpleParser(Buffer.concat(chunks)) }); cb(); });
    },
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  smtp = `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}?ignoreTLS=true`;
});
afterAll(async () => { for (const s of stops) await s(); await new Promise<void>((res) => server.close(() => res())); });

const post = async (base: string, body: unknown) => {
  const r = await fetch(`${base}/mail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.text() };
};

describe('email through the standalone bundle', () => {
  it('sends a message the SMTP server receives; a failure answers as in the other paths', async () => {
    const bundle = await serveBundle('email-bundle.yaml', config, { SERVICE__SECRET__SMTP: smtp }, stops);
    const sent = await post(bundle, { to: 'Ada <ada@example.test>', id: 'B-7' });
    expect(sent.status).toBe(200);
    expect(received).toHaveLength(1);
    const { to, mail } = received[0]!;
    expect(to).toEqual(['ada@example.test']);
    expect(JSON.parse(sent.body)).toMatchObject({ Mail: { message_id: mail.messageId, accepted: ['ada@example.test'], rejected: [] } });
    expect(mail.from?.value).toEqual([{ name: 'Shop', address: 'orders@shop.test' }]);
    expect(mail.subject).toBe('Order B-7');
    expect(mail.text).toBe('Order B-7 is on its way.');
    expect(mail.attachments.map((a) => [a.filename, a.content.toString('utf8')])).toEqual([['note.txt', 'ok ✓']]);

    const fast = await serveOn([await planOf('email-bundle.yaml', 'compiled', config)], testEnv({}, { SMTP: smtp }));
    const slow = await serveOn([await planOf('email-bundle.yaml', 'interpreted', config)], testEnv({}, { SMTP: smtp }));
    stops.push(() => fast.app.close(), () => slow.app.close());
    // The server refusing every recipient is not the client's doing (500); a request value the message
    // cannot carry is (400).
    for (const [body, status] of [[{ to: 'refuse-me@shop.test', id: 1 }, 500], [{ to: 'a@b.test\r\nBcc: evil@attacker.test', id: 2 }, 400]] as const) {
      const answers = await Promise.all([fast.url, slow.url, bundle].map((base) => post(base, body)));
      expect(answers[0]!.status).toBe(status);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
    expect(received).toHaveLength(1);
  }, 180_000);
});
