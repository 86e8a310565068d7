// The sftp `timeout` obeys the bound every action timeout has (runtime/values/bounds.ts): past one day
// it is refused, not silently capped.
import { describe, expect, it } from 'vitest';
import { sftpSettings } from '../../runtime/actions/sftp/settings.ts';

const base = { host: 'h', user: 'u', password: 'p', accept_any_host_key: true, operation: 'list', path: '/' };

describe('sftp timeout', () => {
  it('takes a duration, defaults to 30 s, refuses 0 and anything past the action-timeout bound', () => {
    expect(sftpSettings({ ...base, timeout: '2s' }).timeoutMs).toBe(2000);
    expect(sftpSettings(base).timeoutMs).toBe(30_000);
    expect(() => sftpSettings({ ...base, timeout: '0s' })).toThrow(/"timeout" must be more than 0/);
    expect(() => sftpSettings({ ...base, timeout: '30d' })).toThrow(/sftp: "timeout": /);
  });
});
