// Secrets that pass through a command (an env entry the program prints) are redacted in the error
// response and the capture, in both paths, while the live run keeps the real values; the password of
// the service-wide SERVICE__SMTP_URL appears in neither when the SMTP server cannot be reached.
import { describe, expect, it } from 'vitest';
import { createCapture } from '../../runtime/capture/index.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf } from '../support/plans.ts';
import { MODES } from '../database/helpers.ts';

const TOKEN = 'tok-9f8e7d6c5b4a';
const SMTP_PASSWORD = 'smtp-pass-31415';

const yaml = `
interfaces:
  cmd:
    show_error_detail: true
    actions:
      - name: Leak
        command:
          run: "/bin/sh -c 'echo \\"out $T\\"; echo \\"err $T\\" >&2; exit 1'"
          env: { T: a|secret::TOKEN| }
        output_stdout: true
  mail:
    show_error_detail: true
    actions:
      - name: Mail
        email: { from: a@shop.test, to: b@shop.test, text: hi }
`;

describe.each(MODES)('redaction (%s)', (mode) => {
  it.each([
    ['a command that prints a secret it was given', 'cmd', TOKEN],
    ['an email whose SMTP URL carries a password', 'mail', SMTP_PASSWORD],
  ])('%s: neither the error response nor the capture holds the secret', async (_what, name, secret) => {
    // Port 1 on loopback: nothing listens, so the SMTP connection fails.
    const env = processEnvironment({ SERVICE__SECRET__TOKEN: TOKEN, SERVICE__SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:1`, PATH: process.env.PATH });
    const plan = await planOf(`redact-${mode}.yaml`, mode, yaml);
    const iface = plan.interfaces.find((i) => i.name === name)!;
    iface.capture = 'errors' as never;
    const store = new MemoryStore();
    const r = await executeInterface(plan, iface, { method: 'POST', path: `/${name}`, params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'http', env, services: { clock: systemClock } });
    expect(r.response.status).toBeGreaterThanOrEqual(500);
    expect(JSON.stringify(r.response.body)).not.toContain(secret);
    await createCapture({ store, now: Date.now }).afterRun(plan, iface, r, () => env.sensitiveValues!());
    const captured = JSON.stringify(await store.getCapture(r.state.id));
    expect(captured).not.toContain(secret);
    if (name === 'cmd') {
      expect(captured).toContain('err [redacted]');
      expect((r.response.body as any).error.detail).toBe('command "/bin/sh" exited with code 1 (expect_exit: 0): err [redacted]');
      expect(r.state.steps.Leak!.data).toEqual({ exit_code: 1, stdout: `out ${TOKEN}\n`, stderr: `err ${TOKEN}\n` });
    }
  });
});
