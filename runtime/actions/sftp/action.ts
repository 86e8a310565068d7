// `sftp` action: one operation (list, get, put, delete, rename, mkdir) over a connection opened for
// this attempt and always closed after it. Connect failures (unreachable, authentication, host key)
// answer 502, the connect wait or idle limit 504, an SFTP error 500; every one is retried per the
// non-HTTP rule. Messages never carry the password, key or file content.
import type { ActionKind, ActionOutcome } from '../types.ts';
import { openSession } from './connect.ts';
import { SftpError } from './errors.ts';
import { Refused } from '../../refused.ts';
import { runOperation } from './operations.ts';
import { asker } from './requests.ts';
import { sftpSettings } from './settings.ts';

export const sftp: ActionKind = async (config, ctx) => {
  try {
    const s = sftpSettings(config);
    const where = `${s.user}@${s.host}:${s.port}`;
    const session = await openSession(s, ctx.signal);
    const abort = () => void session.close();
    ctx.signal?.addEventListener('abort', abort, { once: true });
    try {
      return { ok: true, data: await runOperation(asker(where, s.timeoutMs), session.sftp, s, where) };
    } catch (e) {
      if (ctx.signal?.aborted) throw new SftpError(`sftp ${where}: ${s.operation} abandoned when the action's timeout passed`, 'timeout');
      throw e;
    } finally {
      ctx.signal?.removeEventListener('abort', abort);
      await session.close();
    }
  } catch (e) {
    return failed(e);
  }
};

function failed(e: unknown): ActionOutcome {
  const error = e instanceof Error ? e.message : String(e);
  if (e instanceof SftpError && e.cls !== 'operation') return { ok: false, error, failure: { kind: 'transport', cls: e.cls } };
  if (e instanceof Refused) return { ok: false, error, failure: { kind: 'refused', status: e.status } };
  return { ok: false, error, failure: { kind: 'other' } };
}
