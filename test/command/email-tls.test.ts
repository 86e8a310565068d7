// The email action over TLS against in-process smtp-servers with a certificate made here (signed by
// a test CA): smtps:// (TLS from the first byte) and STARTTLS with requireTLS work when
// SERVICE__SMTP_CA trusts the CA; an untrusted certificate and a server that does not offer the
// required STARTTLS fail clearly within the action's attempts, in both execution paths.
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODES, runner } from '../database/helpers.ts';
import { makeCerts, opensslMissing, type TestCerts } from '../http-action/certs.ts';

interface Received { secure: boolean; to: string[] }
const received: Received[] = [];
const servers: SMTPServer[] = [];
let certs: TestCerts;
const ports = { implicit: 0, starttls: 0, plain: 0 };

async function start(options: SMTPServerOptions): Promise<number> {
  const server = new SMTPServer({
    authOptional: true, logger: false, ...options,
    onData(stream, session, cb) {
      stream.resume();
      stream.on('end', () => { received.push({ secure: session.secure, to: session.envelope.rcptTo.map((r) => r.address) }); cb(); });
    },
  });
  // A client that rejects the certificate drops the handshake: the server reports it as an 'error'.
  server.on('error', () => undefined);
  servers.push(server);
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  return (server.server.address() as { port: number }).port;
}

describe.skipIf(opensslMissing)(`email over TLS${opensslMissing ? ` (skipped: ${opensslMissing})` : ''}`, () => {
  beforeAll(async () => {
    certs = makeCerts();
    ports.implicit = await start({ secure: true, key: certs.key, cert: certs.cert });
    ports.starttls = await start({ key: certs.key, cert: certs.cert });
    ports.plain = await start({ disabledCommands: ['STARTTLS'] });
  });
  afterAll(async () => { for (const s of servers) await new Promise<void>((res) => s.close(() => res())); });
  afterEach(() => { received.length = 0; delete process.env.SERVICE__SMTP_CA; });

  const yaml = `
interfaces:
  m:
    show_error_detail: true
    actions:
      - name: Mail
        email: { smtp: a|secret::SMTP|, from: a@shop.test, to: b@shop.test, subject: hi, text: hello }
        retry: { attempts: 2, delay: 0, jitter: none }
`;

  describe.each(MODES)('%s', (mode) => {
    const send = async (smtp: string) => (await runner(`mail-tls-${mode}.yaml`, yaml, mode, { SMTP: smtp }))('m', {});

    it('smtps:// with the CA trusted by SERVICE__SMTP_CA sends over TLS', async () => {
      process.env.SERVICE__SMTP_CA = certs.caPem;
      const r = await send(`smtps://127.0.0.1:${ports.implicit}`);
      expect(r.response.status).toBe(200);
      expect(received).toEqual([{ secure: true, to: ['b@shop.test'] }]);
    });

    it('STARTTLS with requireTLS and the CA trusted sends over TLS', async () => {
      process.env.SERVICE__SMTP_CA = certs.caPem;
      const r = await send(`smtp://127.0.0.1:${ports.starttls}?requireTLS=true`);
      expect(r.response.status).toBe(200);
      expect(received).toEqual([{ secure: true, to: ['b@shop.test'] }]);
    });

    it.each([
      ['smtps:// with no CA trusting the certificate', () => `smtps://127.0.0.1:${ports.implicit}`, undefined],
      ['smtps:// with another CA', () => `smtps://127.0.0.1:${ports.implicit}`, () => certs.otherCaPem],
      ['STARTTLS with no CA trusting the certificate', () => `smtp://127.0.0.1:${ports.starttls}?requireTLS=true`, undefined],
    ])('%s fails clearly, within its attempts, nothing sent', async (_what, smtp, ca) => {
      if (ca) process.env.SERVICE__SMTP_CA = ca();
      const r = await send(smtp());
      expect(r.response.status).toBe(502);
      expect((r.response.body as any).error.detail).toMatch(/^email: not sent: .*(self-signed|unable to (verify|get local issuer))/i);
      expect(r.state.steps.Mail!.attempts).toBe(2);
      expect(received).toHaveLength(0);
    });

    it('requireTLS with a server that does not offer STARTTLS fails clearly, nothing sent', async () => {
      const r = await send(`smtp://127.0.0.1:${ports.plain}?requireTLS=true`);
      expect(r.response.status).toBe(502);
      expect((r.response.body as any).error.detail).toMatch(/^email: not sent: .*STARTTLS/);
      expect(r.state.steps.Mail!.attempts).toBe(2);
      expect(received).toHaveLength(0);
    });
  });
});
