// A failed transform says why: the transform and the reason in the error detail (show_error_detail)
// and one line on the server's error output, for any transform failure, on both paths.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { capturedLog } from '../ops/helpers.ts';
import { planOf, postRequest, serveOn, testEnv } from '../support/plans.ts';
import { runBoth } from '../support/run-both.ts';

afterEach(() => vi.restoreAllMocks());
const SHORT = 'twenty-two-byte-secret'; // 22 bytes

const cfg = (transform: string, detail = true) => `
interfaces:
  x:
    show_error_detail: ${detail}
    actions:
      - name: T
        input: { user: ada }
        post_transforms:
          - ${transform}
`;

describe('a failed transform says why', () => {
  it('add_jwt with a 22-byte secret: the reason in the detail and on the error output', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r = await runBoth(cfg('add_jwt: { key: jwt, secret: a|var::JWT|, data: all }'), 'x', {}, { JWT: SHORT });
    expect(r.response).toEqual({ status: 500, headers: {}, body: { error: {
      status: 500, message: 'action "T" failed', action: 'T', detail: 'add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2)', data: { user: 'ada' },
    } } });
    // One line per run, on each path.
    expect(err.mock.calls).toEqual([
      ['pipewright: inline.x run 00000000-0000-4000-8000-000000000001: action "T" failed: add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2)'],
      ['pipewright: inline.x run 00000000-0000-4000-8000-000000000001: action "T" failed: add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2)'],
    ]);
    expect(JSON.stringify(err.mock.calls)).not.toContain(SHORT);
  });

  it('any transform failure (math, flatten, a jq error) is reported the same way', async () => {
    const cases: Array<[string, string]> = [
      ['math: { expressions: { x: "1" }, decimal_places: 21 }', 'math: decimal_places must be a whole number from 0 to 20, got 21'],
      ['flatten: { key_separator: ".", target: "$.user" }', 'flatten: the target selects a string, not an object or array'],
      ['extract_with_jq: ".user | error(\\"bad user\\")"', 'extract_with_jq'],
    ];
    for (const [t, reason] of cases) {
      const err = vi.spyOn(console, 'error').mockImplementation(() => {});
      const r = await runBoth(cfg(t), 'x');
      const e = (r.response.body as { error: { detail: string } }).error;
      expect(r.response.status).toBe(500);
      expect(e.detail.startsWith(reason)).toBe(true);
      expect(err).toHaveBeenCalledTimes(2);
      expect(String(err.mock.calls[0]![0])).toContain(`action "T" failed: ${reason}`);
      err.mockRestore();
    }
  });

  it('without show_error_detail the body stays generic, and the server still prints the reason', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const mode of ['compiled', 'interpreted'] as const) {
      const plan = await planOf('inline.yaml', mode, cfg('add_jwt: { key: jwt, secret: a|var::JWT|, data: all }', false));
      const { app, url } = await serveOn([plan], testEnv({ JWT: SHORT }));
      try {
        const res = await fetch(`${url}/x`, { method: 'POST' });
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ error: { status: 500, message: 'action "T" failed', action: 'T' } });
      } finally {
        await app.close();
      }
    }
    expect(err).toHaveBeenCalledTimes(2);
    expect(String(err.mock.calls[1]![0])).toMatch(/^pipewright: inline\.x run [0-9a-f-]+: action "T" failed: add_jwt: the secret must be at least 32 bytes \(RFC 7518 §3\.2\)$/);
  });

  it.each(['compiled', 'interpreted'] as const)('with the operational log the reason is in its failed-action line, not on the error output (%s)', async (mode) => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const env = testEnv({ JWT: SHORT });
    const { log, lines } = capturedLog(env);
    const plan = await planOf('inline.yaml', mode, cfg('add_jwt: { key: jwt, secret: a|var::JWT|, data: all }'));
    const r = await executeInterface(plan, plan.interfaces[0]!, postRequest('/x'), { trigger: 'test', env, services: { clock: systemClock, log } });
    expect(r.response.status).toBe(500);
    expect(lines.map((l) => [l.msg, l.reason])).toEqual([['action "T" failed', 'add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2)']]);
    expect(err).not.toHaveBeenCalled();
  });
});
